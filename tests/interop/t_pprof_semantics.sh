#!/usr/bin/env bash
# pprof semantics that pcol's views must share with go tool pprof (issue
# 27), each against pprof on the test data and on profiles made here: by
# tests/support/semantics_pprof.py (a label set in two orders, a frame
# without a file, numeric labels with units) and by tests/go/semantics (a
# Go CPU profile with three map-ordered labels and inlined frames, and a
# heap profile with many allocation sizes).
#   - label sets are sets: `traces` = pprof -traces
#   - top --by file = pprof -files (frames without a file are "<unknown>"
#     or "[binary]" with their cum; a file pprof splits: the sum of flats)
#   - --tag/--tag-ignore numeric ranges with units = -tagfocus/-tagignore
#   - --no-inlines = -noinlines (top, peek, traces, -lines, -addresses)
#   - top's Time:/Duration: lines = pprof's
#   - a pprof export of several sources: time, duration, period and
#     comments as go tool pprof -proto's merge of the same files
#   - diff --absolute's changes and order = pprof -diff_base -top, with
#     --node-fraction = -nodefraction (0, 0.005, 0.05)
#   - the total of a profile with values below 0 (signed.pb.gz), of two
#     merged, and of a directory of them: samples of one stack and label
#     set merged before |values| are added (top, peek, tree, traces)
#   - calls whose samples cancel (cancel.pb.gz): listed at 0 as pprof lists
#     them (two label sets, or -diff_base), left out where its merge makes
#     one sample of 0
#   - a profile without mappings: -tagroot/-tagleaf's label frames take
#     no fake mapping (--show/--hide/--focus/--ignore '^$')
#   - a numeric label named in its key's unit (tags, traces, top --by
#     label), not in the unit it gives
#   - --base/--diff-base in another unit of the value's family (scaled into
#     the finer one, as pprof's ScaleProfiles); another period type refused
#   - a numeric label key in several units: pprof's warning, per view
#   - --base/--diff-base: value types paired by position (pprof refuses
#     another count or order, with its reason)
#   - -mean with -base/-diff_base (pprof's computeTotal of the base)
#   - traces --base in pprof's order (the profile and the base each merged
#     alone first)
#   - no node left (--node-fraction): each number in its own unit, as
#     pprof's "minimum" ("Dropped 10 nodes (cum <= 200ms)"; top, tree, graph,
#     the report page's call graph)
#
# How it runs (make test's CPU budget): go's views come from go tool
# pprof's interactive sessions, one per profile, base and -sample_index
# (tests/interop/pprof_session.sh: one view in 25 also on the command line,
# held to the session's answer), but for those judged by their exit status
# or with a base not given as -base=FILE; pcol's side runs as each
# comparison is planned (its text kept), the sessions after the planning,
# then tests/interop/semantics_judge.py cuts both sides of every
# comparison as the test's sed, grep and sort did and judges all at once.
# Env: PCOL, PCOL_TESTDATA.  Exit 0 pass, 1 fail, 77 skip (no Go).
set -u
PPROF_WHAT="go tool pprof's semantics"
. tests/interop/pprof_env.sh
REPO=$(pwd)
mkdir -p "$tmp/p" "$tmp/gv" "$tmp/pv"
fail=0 checked=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
. tests/interop/pprof_session.sh
J=0 MAN=()
# want RULE GO WHAT [FLAGS]: pcol's text (in $tmp/pv/$J, its exit status
# in $tmp/pv/$J.rc: pcrc) against go's view GO (a file ps_plan writes),
# both cut by RULE (semantics_judge.py's rules); FLAGS w: pcol's "For tag"
# warnings dropped first, n: go's side not empty after the cut, r: go's
# refusal expected (GO empty: passes only when pcol's exit status is not
# 0).  A GO that is empty without r fails, as does pcol's exit status not 0
# beside a view of go's.
want() { MAN+=("$J"$'\t'"$1"$'\t'"$2"$'\t'"${4:--}"$'\t'"$3"); }
# pcrc: pcol's exit status (the last command's) kept for comparison J
pcrc() { echo "$?" >"$tmp/pv/$J.rc"; }
# gv GO-ARGS...: go tool pprof -symbolize=none GO-ARGS planned into a new
# comparison's $tmp/gv/$J (J counts the comparisons)
gv() { J=$((J + 1)); ps_plan "$tmp/gv/$J" "$@"; }

python3 tests/support/semantics_pprof.py "$tmp/p" || bad "semantics_pprof.py"
(cd tests/go && go run ./semantics "$tmp/p" >"$tmp/go_run.log" 2>&1) || { bad "go run ./semantics:"; cat "$tmp/go_run.log"; }
lab=$tmp/p/labels.pb.gz nums=$tmp/p/nums.pb.gz gcpu=$tmp/p/go-cpu-labels3-inline.pb.gz gheap=$tmp/p/go-heap-sizes.pb.gz
chain=$tmp/p/inline-chain.pb.gz

# same FROM VIEW FILE PPROF-ARGS -- PCOL-ARGS: the text from the line FROM
# matches (a sed address, or another of want's rules) on, pprof's against
# pcol's (refuse=r: both must refuse)
same() {
  local from=$1 view=$2 f=$3
  shift 3
  local pp=() pc=()
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  checked=$((checked + 1))
  gv "${pp[@]}" "$f"
  "$PCOL" "$view" "$f" "${pc[@]}" >"$tmp/pv/$J" 2>&1
  pcrc
  want "$from" "$tmp/gv/$J" "${f##*/}: go tool pprof ${pp[*]} vs pcol $view ${pc[*]} (< pprof, > pcol):" "w${refuse-}"
}
top() { local f=$1; shift; same '/^Showing nodes/' top "$f" -top "$@"; }
traces() { local f=$1; shift; same '/^-----------+/' traces "$f" -traces "$@"; }

# 2. one label set in two orders is one set (pprof merges them)
for f in "$lab" "$gcpu" "$TD"/ext/pprof/go-cpu-labels-guide.pb.gz "$TD"/ext/pprof/go-cpu-span-id-labels.pb.gz; do
  [ -f "$f" ] && traces "$f" --
done
n=$("$PCOL" cat "$lab" --table samples --format tsv | awk -F'\t' 'NR > 1 { print $8 }' | sort -u | wc -l)
checked=$((checked + 1))
[ "$n" = 3 ] || bad "labels.pb.gz: its samples carry 3 label sets (and none), pcol made $n ids"

# 3. top --by file = pprof -files
# (the profiles with frames without a file, and files pprof splits)
for f in "$TD"/pprof/nodejs-wall.pb.gz "$TD"/ext/pprof/nodejs-cpu.pb.gz "$TD"/ext/pprof/nodejs-heap.pb.gz \
  "$TD"/ext/pprof/go-cpu-unknown.pb.gz "$TD"/ext/pprof/jfr-kafka-cpu.pb.gz "$TD"/ext/pprof/rust-pprof-rs-cpu.pb.gz \
  "$TD"/ext/pprof/malformed-no-addr-no-line.pb.gz "$TD"/ext/pprof/go-cpu-stripped-unsymbolized.pb.gz \
  "$TD"/ext/pprof/go-cpu-truncated-stacks-1.pb.gz "$lab" "$gcpu"; do
  [ -f "$f" ] || continue
  checked=$((checked + 1))
  python3 tests/support/pprof_files_cmp.py "$PCOL" "$f" || bad "$(basename "$f"): top --by file differs from pprof -files"
done
top "$lab" -files -- --by file

# 6. numeric label ranges (-tagfocus/-tagignore), units converted as pprof
for spec in 'bytes=1kb:' 'bytes=:512' 'bytes=1mb:2mb' 'bytes=512b' 'bytes=1kb' 'bytes=100' '1kb:' \
  'alloc=1mb:' 'alloc=300kb' 'dur=7ms:' 'dur=1s:' 'dur=14ms:21ms' 'count=5:' 'count=3' 'bytes=1kb:4gb' \
  'bytes=1048577b' 'dur=1kb:' 'bytes=+1kb:' 'bytes=2kb:1mb'; do
  top "$nums" -tagfocus="$spec" -- --tag "$spec"
done
for spec in 'bytes=1kb:' 'dur=14ms:21ms' 'count=3'; do
  top "$nums" -tagignore="$spec" -- --tag-ignore "$spec"
done
top "$nums" -tagfocus=kind=big -tagignore='bytes=:2mb' -- --tag kind=big --tag-ignore 'bytes=:2mb'
for f in "$gheap" "$TD"/pprof/go-heap-allocs-inline.pb.gz; do
  [ -f "$f" ] || continue
  for spec in 'bytes=1kb:' 'bytes=:512' 'bytes=1mb:2mb' 'bytes=4kb' '64kb:'; do
    top "$f" -sample_index=alloc_space -tagfocus="$spec" -- --value alloc_space --tag "$spec"
  done
  top "$f" -sample_index=alloc_space -tagignore='bytes=1kb:' -- --value alloc_space --tag-ignore 'bytes=1kb:'
done

# --no-inlines = pprof -noinlines
for f in "$gcpu" "$TD"/pprof/go-cpu-inline-small.pb.gz "$TD"/ext/pprof/go-cpu-truncated-stacks-1.pb.gz; do
  [ -f "$f" ] || continue
  top "$f" -noinlines -- --no-inlines
  top "$f" -noinlines -cum -nodefraction=0 -- --no-inlines --sort cum --node-fraction 0
  top "$f" -noinlines -hide=runtime -focus=inline -- --no-inlines --hide runtime --focus inline
  top "$f" -noinlines -lines -- --no-inlines --by line
  same '/^Showing nodes/' peek "$f" -noinlines -peek . -- . --no-inlines
  traces "$f" -noinlines -- --no-inlines
done
top "$gcpu" -noinlines -addresses -- --no-inlines --by address

# a function on a location's inline chain many times is counted once a
# sample (chains of 3, 17 and 40 lines repeating functions)
top "$chain" -nodefraction=0 -- --node-fraction 0
top "$chain" -cum -nodefraction=0 -- --sort cum --node-fraction 0
top "$chain" -lines -nodefraction=0 -- --by line --node-fraction 0
top "$chain" -noinlines -nodefraction=0 -- --no-inlines --node-fraction 0
same '/^Showing nodes/' peek "$chain" -peek 'f0[0-5]' -- 'f0[0-5]'
traces "$chain" --

# recursion through inlined frames (inline-rec-*): pprof counts a call once
# a sample, at its first occurrence from the root, for its "(inline)" marks
# (graph.go newGraph's seenEdge): top's two modes (the path walk and the
# subtree sums), the rows kept by -nodecount (the graph rebuilt from them),
# peek, and top of a directory of pcol files (their calls added up by name)
mkdir -p "$tmp/rec"
for f in "$tmp"/p/inline-rec-*.pb.gz; do
  for n in 0 2 3; do
    ga=(-nodefraction=0) pa=(--node-fraction 0)
    ga+=(-nodecount=$n) pa+=(-n $n) # 0: every row, in both
    gv -top "${ga[@]}" "$f"
    g=$tmp/gv/$J
    for m in top-walk top-sums; do
      checked=$((checked + 1))
      [ $m = top-sums ] && J=$((J + 1))
      PCOL_DEBUG=$m "$PCOL" top "$f" "${pa[@]}" >"$tmp/pv/$J" 2>&1
      pcrc
      want '/^Showing nodes/' "$g" "$(basename "$f"): go tool pprof -top ${ga[*]} vs pcol top ${pa[*]} ($m)"
    done
  done
  "$PCOL" pack "$f" -o "$tmp/rec/$(basename "$f" .pb.gz).pcol" || bad "pack $f"
done
for f in "$tmp"/p/inline-rec-0[0-3].pb.gz; do
  same '/^Showing nodes/' peek "$f" -peek 'F[0-2]' -- 'F[0-2]'
done
for n in 0 3; do
  ga=(-nodefraction=0) pa=(--node-fraction 0)
  ga+=(-nodecount=$n) pa+=(-n $n)
  checked=$((checked + 1))
  gv -top "${ga[@]}" "$tmp"/p/inline-rec-*.pb.gz
  "$PCOL" top "$tmp/rec" "${pa[@]}" >"$tmp/pv/$J" 2>&1
  pcrc
  want '/^Showing nodes/' "$tmp/gv/$J" "inline-rec-*: go tool pprof -top ${ga[*]} of them all vs pcol top DIR ${pa[*]}"
done
# a function recursing 65,530 and 70,000 frames deep (the walk's 16-bit
# counts: below their limit, and past it, where the sums take over)
for d in 65530 70000; do
  top "$tmp/p/deep-$d.pb.gz" -nodefraction=0 -- --node-fraction 0
  top "$tmp/p/deep-$d.pb.gz" -cum -nodefraction=0 -- --sort cum --node-fraction 0
done

# top's and traces' header: pprof's Time: and Duration: lines (traces'
# total: the view's, in its own unit; under -mean pprof's mean total)
# (the profiles of the test data neither reads: both must refuse them,
# ODD-jfr-dump2-labels not a profile, dotnet-73 a function of id 0)
refused_inputs=" ODD-jfr-dump2-labels.pb.gz dotnet-73.pb.gz "
timelines() { # VIEW FILE [--mean]
  local r=
  [[ $refused_inputs == *" ${2##*/} "* ]] && r=r
  checked=$((checked + 1))
  gv -$1 ${3:+-mean} "$2"
  "$PCOL" "$1" "$2" ${3:-} >"$tmp/pv/$J" 2>/dev/null
  pcrc
  want 'grep:(Time|Duration): ' "$tmp/gv/$J" "$(basename "$2"): $1 ${3:-}'s Time/Duration (< pprof, > pcol)" "$r"
}
for f in "$TD"/pprof/*.pb.gz "$TD"/ext/pprof/*.pb.gz "$gcpu" "$gheap"; do
  [ -f "$f" ] || continue
  timelines traces "$f"
  case $f in "$TD"/ext/pprof/*) [ "${f##*/}" = go-cpu-truncated-stacks-1.pb.gz ] || continue ;; esac
  timelines top "$f"
done
timelines traces "$gheap" --mean
timelines traces "$TD"/pprof/go-heap-allocs-inline.pb.gz --mean
# a pprof export of several sources: time_nanos and duration_nanos as go's
# profile.Merge combines them (-proto): the earliest start, the durations added
mp=("$TD"/pprof/go-cpu-large.pb.gz "$TD"/pprof/go-cpu-inline-small.pb.gz "$TD"/pprof/go-cpu-string-labels.pb.gz)
for order in "0 1 2" "1 0" "2 1 0"; do
  ins=(); for k in $order; do ins+=("${mp[$k]}"); done
  checked=$((checked + 1))
  go tool pprof -proto "${ins[@]}" >"$tmp/gomerge.pb.gz" 2>/dev/null &&
    "$PCOL" unpack "${ins[@]}" --to pprof -o "$tmp/pcmerge.pb.gz" 2>/dev/null || { bad "merge of ${ins[*]##*/}"; continue; }
  go tool pprof -raw "$tmp/gomerge.pb.gz" 2>/dev/null | grep -E '^(Time|Duration): ' >"$tmp/gm.h"
  go tool pprof -raw "$tmp/pcmerge.pb.gz" 2>/dev/null | grep -E '^(Time|Duration): ' >"$tmp/pm.h"
  [ "$(wc -l <"$tmp/gm.h")" = 2 ] && cmp -s "$tmp/gm.h" "$tmp/pm.h" ||
    { bad "unpack --to pprof of ${ins[*]##*/}: Time/Duration vs go's -proto merge (< go, > pcol)"; diff "$tmp/gm.h" "$tmp/pm.h"; }
done
# ... its period and comments too: go's merge keeps the period type, takes
# the largest period (java-cpu-async-profiler's is 0, jfr-kafka-cpu's 1s,
# cpp-cpu-unsymbolized-mappings' 10ms; all cpu/nanoseconds) and a comment
# once (java-cpu-async-profiler's "async-profiler").  go's reading merges
# too (dropping a repeated comment), so the comments are the message's own,
# each index looked up in the string table (protoc)
pbcomments() { # FILE.pb.gz: its comments' text, one a line
  gzip -dc "$1" | protoc --decode=perftools.profiles.Profile -I "$REPO/format" "$REPO/format/profile.proto" |
    awk '/^string_table: /{s[n++]=substr($0, 15)} /^comment: /{c[m++]=$2} END{for (i = 0; i < m; i++) print "comment " s[c[i]]}'
}
ja="$TD"/pprof/java-cpu-async-profiler.pb.gz kc="$TD"/ext/pprof/jfr-kafka-cpu.pb.gz
cu="$TD"/pprof/cpp-cpu-unsymbolized-mappings.pb.gz
for ins in "$ja $kc $ja" "$ja $cu" "$cu $ja $ja" "$kc $ja $cu"; do
  checked=$((checked + 1))
  go tool pprof -proto $ins >"$tmp/gomerge.pb.gz" 2>/dev/null &&
    "$PCOL" unpack $ins --to pprof -o "$tmp/pcmerge.pb.gz" 2>/dev/null || { bad "merge of $ins"; continue; }
  for s in gm:gomerge pm:pcmerge; do
    { go tool pprof -raw "${tmp}/${s#*:}.pb.gz" 2>/dev/null | grep -E '^(PeriodType|Period|Comment): '
      pbcomments "${tmp}/${s#*:}.pb.gz"; } >"$tmp/${s%:*}.h"
  done
  grep -q '^Period: [1-9]' "$tmp/gm.h" && grep -q '^comment ' "$tmp/gm.h" && cmp -s "$tmp/gm.h" "$tmp/pm.h" ||
    { bad "unpack --to pprof of $(for f in $ins; do printf '%s ' "${f##*/}"; done): period and comments vs go's -proto merge (< go, > pcol)"
      diff "$tmp/gm.h" "$tmp/pm.h"; }
done

# diff: pcol diff --absolute's changes, in pprof -diff_base -top's order
diffcmp() { # BASE NEW SORT [NODEFRACTION [TAGROOT [UNIT [BY]]]] (UNIT "": none; default ns; BY: lines, addresses)
  local base=$1 new=$2 sort=$3 nf=${4:-0} root=${5:-} unit=${6-ns} by=${7:-}
  local gby=() pby=()
  case $by in lines) gby=(-lines) pby=(--by line) ;; addresses) gby=(-addresses) pby=(--by address) ;; esac
  [ -f "$base" ] && [ -f "$new" ] || { echo "skip: diff $(basename "$base") $(basename "$new"): not in the test data"; return; }
  checked=$((checked + 1))
  go tool pprof -symbolize=none -top -nodefraction=$nf ${unit:+-unit=$unit} ${sort:+-cum} ${root:+-tagroot=$root} "${gby[@]}" -diff_base "$base" "$new" 2>/dev/null >"$tmp/go.dt" ||
    : >"$tmp/go.dt"
  # pprof's graph has no node whose flat and cum are both 0: not listed,
  # not counted in "Dropped N nodes"
  grep -o '^Dropped [0-9]* nodes' "$tmp/go.dt" >"$tmp/go.d"
  sed -n '/flat%/,$p' "$tmp/go.dt" | tail -n +2 |
    awk '{ f = $1; c = $4; sub(/ns$/, "", f); sub(/ns$/, "", c); n = $0
           sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n); print f, c, n }' >>"$tmp/go.d"
  "$PCOL" diff "$base" "$new" --absolute --node-fraction "$nf" ${unit:+--unit $unit} ${sort:+--sort cum} ${root:+--tagroot $root} "${pby[@]}" 2>"$tmp/pc.de" >"$tmp/pc.dt"
  grep -o '^Dropped [0-9]* nodes' "$tmp/pc.dt" >"$tmp/pc.d"
  sed -n '/base_flat/,$p' "$tmp/pc.dt" | tail -n +2 |
    awk '{ f = $3; c = $6; sub(/ns$/, "", f); sub(/ns$/, "", c); sub(/^\+/, "", f); sub(/^\+/, "", c); n = $0
           sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n); print f, c, n }' >>"$tmp/pc.d"
  [ -s "$tmp/go.dt" ] && cmp -s "$tmp/go.d" "$tmp/pc.d" ||
    { bad "diff $(basename "$base") $(basename "$new") ${sort:+--sort cum} --node-fraction $nf ${root:+--tagroot $root} ${pby[*]} vs pprof -diff_base (< pprof, > pcol)"; diff "$tmp/go.d" "$tmp/pc.d" | head -6; cat "$tmp/pc.de"; }
}
# rows of one name that are pprof's nodes apart (a frame of no function
# name: "[app]" of two start lines, "??" by line of three mappings) pair
# each with the other side's node of its start line and mapping, as go's
# merge pairs them, not with whichever row of its name sorts beside it
# (they were joined by name alone: "[app] +1774ns", a row go has not)
if python3 tests/support/pprofgen.py random "$tmp/r2080.pb" 2080 && python3 tests/support/pprofgen.py random "$tmp/r1593.pb" 1593; then
  diffcmp "$tmp/r2080.pb" "$tmp/r1593.pb" ""
  diffcmp "$tmp/r2080.pb" "$tmp/r1593.pb" cum
  diffcmp "$tmp/r2080.pb" "$tmp/r1593.pb" "" 0 "" ns lines
else
  bad "pprofgen.py random 2080, 1593"
fi
rb="$TD"/pprof-from-r/r-prof-profile__1.out.prof.pb.gz rn="$TD"/pprof-from-r/r-prof-profile__1.out.prof.5bb4fa9.pb.gz
diffcmp "$rb" "$rn" "" 0 "" ns lines
diffcmp "$rn" "$rb" cum 0 "" ns lines
for s in "" cum; do
  diffcmp "$TD"/pprof/go-cpu-inline-small.pb.gz "$gcpu" "$s"
  diffcmp "$gcpu" "$TD"/pprof/go-cpu-inline-small.pb.gz "$s"
done
# pprof's -nodefraction on -diff_base (its default 0.005 and a coarser one):
# the rows whose |cum| of the merged graph is below the cut go
# names whose flat and cum both change by 0 (X, Y, c, main; a file against
# itself: all) are no node of pprof's graph: neither listed nor dropped
printf 'main;a;X 10\nmain;b;X 10\nmain;c;Y 5\n' >"$tmp/zb.txt"
printf 'main;a;X 20\nmain;c;Y 5\n' >"$tmp/zn.txt"
"$PCOL" unpack "$tmp/zb.txt" --to pprof -o "$tmp/zb.pb.gz" && "$PCOL" unpack "$tmp/zn.txt" --to pprof -o "$tmp/zn.pb.gz" ||
  bad "unpack of two collapsed files"
for nf in 0 0.005 0.5; do
  diffcmp "$tmp/zb.pb.gz" "$tmp/zn.pb.gz" "" $nf "" ""
  diffcmp "$tmp/zb.pb.gz" "$tmp/zb.pb.gz" "" $nf "" ""
  diffcmp "$gcpu" "$gcpu" cum $nf
done
for nf in 0.005 0.05; do
  diffcmp "$TD"/pprof/go-cpu-inline-small.pb.gz "$gcpu" "" $nf
  diffcmp "$gcpu" "$TD"/pprof/go-cpu-inline-small.pb.gz cum $nf
  diffcmp "$TD"/pprof/go-cpu-inline-small.pb.gz "$TD"/pprof/go-cpu-large.pb.gz "" $nf
done

# --diff-base/--base of a directory or a glob: the union of its files, as
# pprof -diff_base of the one profile go's -proto merges them into
mkdir -p "$tmp/bdir"
cp "$TD"/pprof/go-cpu-inline-small.pb.gz "$gcpu" "$tmp/bdir/" &&
  go tool pprof -proto "$tmp"/bdir/*.pb.gz >"$tmp/bmerged.pb.gz" 2>/dev/null || bad "go tool pprof -proto of two profiles"
for b in diff_base base; do
  top "$TD"/pprof/go-cpu-large.pb.gz -$b="$tmp/bmerged.pb.gz" -- --${b/_/-} "$tmp/bdir"
  top "$TD"/pprof/go-cpu-large.pb.gz -$b="$tmp/bmerged.pb.gz" -cum -- --${b/_/-} "$tmp/bdir/*.gz" --sort cum
done

# values below 0: pprof merges the samples of one stack and label set (of
# every profile given) before it adds up |values| for the total, so samples
# that cancel add nothing; every view's shares, both ways pcol's top walks
signed=$tmp/p/signed.pb.gz signed2=$tmp/p/signed-2.pb.gz
for mode in top-sums top-walk; do
  export PCOL_DEBUG=$mode
  for si in alloc_objects alloc_space; do
    top "$signed" -sample_index=$si -- --value $si
    top "$signed" -sample_index=$si -cum -- --value $si --sort cum
  done
  top "$signed" -lines -- --by line
  top "$signed" -focus=serve -relative_percentages -- --focus serve --relative-percentages
  top "$signed" -tagfocus=tenant=a -relative_percentages -- --tag tenant=a --relative-percentages
  top "$signed" -tagignore=tenant=b -- --tag-ignore tenant=b
  top "$signed" -mean -sample_index=alloc_space -- --mean --value alloc_space
  same '/^Showing nodes/' peek "$signed" -peek . -- .
  same '/^Showing nodes/' tree "$signed" -tree --
  for si in alloc_objects alloc_space; do # (main.main adds up to 0 in alloc_objects)
    same '/^Showing nodes/' tree "$signed" -tree -sample_index=$si -- --value $si
    same '/^Showing nodes/' tree "$signed" -tree -sample_index=$si -mean -- --value $si --mean
  done
  traces "$signed" --
  same 1 tags "$signed" -tags --
  same 4 graph "$signed" -dot -- # (line 3, the legend, names the file)
  # without labels (pcol's groups are then its stack sums, no pass of their own)
  bare=$tmp/p/signed-bare.pb.gz
  for si in alloc_objects alloc_space; do
    top "$bare" -sample_index=$si -- --value $si
    top "$bare" -sample_index=$si -cum -nodefraction=0 -- --value $si --sort cum --node-fraction 0
    same '/^Showing nodes/' peek "$bare" -peek . -sample_index=$si -- . --value $si
    same '/^Showing nodes/' tree "$bare" -tree -edgefraction=0 -sample_index=$si -- --edge-fraction 0 --value $si
  done
  top "$bare" -focus=serve -- --focus serve
  top "$bare" -focus=serve -relative_percentages -- --focus serve --relative-percentages
  same '/^Showing nodes/' peek "$bare" -peek . -ignore=log -- . --ignore log
  # two profiles: their samples merged across the files
  for cum in "" -cum; do
    checked=$((checked + 1))
    gv -top $cum "$signed" "$signed2"
    "$PCOL" top ${cum:+--sort cum} "$signed" "$signed2" >"$tmp/pv/$J" 2>&1
    pcrc
    want '/^Showing/' "$tmp/gv/$J" "pprof -top $cum signed.pb.gz signed-2.pb.gz vs pcol top"
  done
done
# a profile without mappings (signed.pb.gz): pprof's fake mapping is the
# read locations', not -tagroot/-tagleaf's label frames, so ^$ (the fake
# mapping's file) shows/hides/focuses every frame but those
for w in tagleaf tagroot; do
  for flt in show hide focus ignore; do
    top "$signed" -$flt='^$' -$w=tenant -- --$flt '^$' --$w tenant
  done
  same '/^Showing nodes/' tree "$signed" -tree -show='^$' -$w=tenant -- --show '^$' --$w tenant
  traces "$signed" -hide='^$' -$w=tenant -- --hide '^$' --$w tenant
done
# calls whose samples cancel: listed at 0 when pprof's merged samples are
# not 0 (two label sets; a base's samples, labelled), not at all else
cancel=$tmp/p/cancel.pb.gz cbase=$tmp/p/cancel-base.pb.gz
for mode in top-sums top-walk; do
  export PCOL_DEBUG=$mode
  same '/^Showing nodes/' peek "$cancel" -peek . -- .
  # tree: a function whose samples add up to 0 is no node, but its calls
  # stay (pcol_graph's phantoms)
  same '/^Showing nodes/' tree "$cancel" -tree -edgefraction=0 -- --edge-fraction 0
  same '/^Showing nodes/' tree "$cancel" -tree --
  same 4 graph "$tmp/p/bucket-cancel.pb.gz" -dot -- # (a cancelled size widens no bucket)
  same 4 graph "$tmp/p/bucket-cancel.pb.gz" -dot -mean -- --mean
  # -dot: a call into a node whose samples add up to 0 is drawn to "N0"
  # (pprof's graph keeps it in its callers' calls, out of its nodes)
  same 4 graph "$cancel" -dot -nodefraction=0 -edgefraction=0 -- --node-fraction 0 --edge-fraction 0
  same 4 graph "$cancel" -dot --
  top "$cancel" -nodefraction=0 -- --node-fraction 0
  same '/^Showing nodes/' peek "$cancel" -peek . -diff_base="$cbase" -- . --diff-base "$cbase"
  top "$cancel" -diff_base="$cbase" -nodefraction=0 -- --diff-base "$cbase" --node-fraction 0
  same '/^Showing nodes/' peek "$cbase" -peek . -base="$cancel" -- . --base "$cancel"
done
unset PCOL_DEBUG
# ... and as pcol files in a directory (pcol top DIR answers file by file
# where it can: here only their union can)
mkdir -p "$tmp/signed"
"$PCOL" pack "$signed" -o "$tmp/signed/1.pcol" && "$PCOL" pack "$signed2" -o "$tmp/signed/2.pcol" || bad "pack signed"
checked=$((checked + 1))
gv -top "$signed" "$signed2"
"$PCOL" top "$tmp/signed" >"$tmp/pv/$J" 2>&1
pcrc
want '/^Showing/' "$tmp/gv/$J" "pprof -top signed.pb.gz signed-2.pb.gz vs pcol top DIR"

# Frames without a function name are pprof nodes of their own by the
# mapping's file (the full path, "[base]" printed) and the function's start
# line (graph.go nodeInfo: `if o.ObjNames || name == ""`): two nameless
# functions of one file in two binaries, two of one binary with two start
# lines, and two unsymbolized libraries of one base name in two
# directories are two rows of one name each, in every granularity
pbtext() { # pbtext NAME: the protoc text on stdin, encoded to $tmp/NAME.pb
  protoc --encode=perftools.profiles.Profile -I "$REPO/format" "$REPO/format/profile.proto" >"$tmp/$1.pb" ||
    bad "protoc $1"
}
# the period of a pprof export of several sources as go's profile.Merge
# combines them (merge.go combineHeaders: the largest of one period type;
# the first source's alone before): CPU profiles at 10 ms and 20 ms
for per in 10000000 20000000; do
  pbtext period-$per <<PB
sample_type { type: 1 unit: 2 }
sample_type { type: 3 unit: 4 }
sample { location_id: 1 value: 3 value: $((3 * per)) }
location { id: 1 line { function_id: 1 } }
function { id: 1 name: 5 }
period_type { type: 3 unit: 4 }
period: $per
time_nanos: 1500000000000000000
duration_nanos: 1000000000
string_table: ""
string_table: "samples"
string_table: "count"
string_table: "cpu"
string_table: "nanoseconds"
string_table: "work"
PB
done
for ins in "period-10000000 period-20000000" "period-20000000 period-10000000"; do
  set -- $ins
  checked=$((checked + 1))
  go tool pprof -proto "$tmp/$1.pb" "$tmp/$2.pb" >"$tmp/gomerge.pb.gz" 2>/dev/null &&
    "$PCOL" unpack "$tmp/$1.pb" "$tmp/$2.pb" --to pprof -o "$tmp/pcmerge.pb.gz" 2>/dev/null || { bad "merge of $ins"; continue; }
  go tool pprof -raw "$tmp/gomerge.pb.gz" 2>/dev/null | grep -E '^(PeriodType|Period|Time|Duration): ' >"$tmp/gm.h"
  go tool pprof -raw "$tmp/pcmerge.pb.gz" 2>/dev/null | grep -E '^(PeriodType|Period|Time|Duration): ' >"$tmp/pm.h"
  grep -qx 'Period: 20000000' "$tmp/gm.h" && cmp -s "$tmp/gm.h" "$tmp/pm.h" ||
    { bad "unpack --to pprof of $ins: the period vs go's -proto merge (< go, > pcol)"; diff "$tmp/gm.h" "$tmp/pm.h"; }
done
pbtext two-binaries <<'PB'
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 3 value: 5 }
sample { location_id: 2 location_id: 3 value: 3 }
mapping { id: 1 memory_start: 4096 memory_limit: 8192 filename: 6 has_functions: true }
mapping { id: 2 memory_start: 65536 memory_limit: 131072 filename: 7 has_functions: true }
location { id: 1 mapping_id: 1 address: 4100 line { function_id: 1 line: 9 } }
location { id: 2 mapping_id: 2 address: 65600 line { function_id: 2 line: 9 } }
location { id: 3 mapping_id: 1 address: 4200 line { function_id: 3 line: 2 } }
function { id: 1 name: 0 filename: 5 }
function { id: 2 name: 0 filename: 5 }
function { id: 3 name: 3 filename: 4 }
string_table: ["", "samples", "count", "main", "main.c", "util.c", "/bin/app", "/lib/libx.so"]
PB
pbtext start-lines <<'PB'
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 3 value: 5 }
sample { location_id: 2 location_id: 3 value: 3 }
mapping { id: 1 memory_start: 4096 memory_limit: 8192 filename: 6 has_functions: true }
location { id: 1 mapping_id: 1 address: 4100 line { function_id: 1 line: 9 } }
location { id: 2 mapping_id: 1 address: 4150 line { function_id: 2 line: 9 } }
location { id: 3 mapping_id: 1 address: 4200 line { function_id: 3 line: 2 } }
function { id: 1 name: 0 filename: 5 start_line: 10 }
function { id: 2 name: 0 filename: 5 start_line: 20 }
function { id: 3 name: 3 filename: 4 }
string_table: ["", "samples", "count", "main", "main.c", "util.c", "/bin/app"]
PB
pbtext two-dirs <<'PB'
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 3 value: 5 }
sample { location_id: 2 location_id: 3 value: 3 }
mapping { id: 1 memory_start: 4096 memory_limit: 8192 filename: 4 }
mapping { id: 2 memory_start: 65536 memory_limit: 131072 filename: 5 }
location { id: 1 mapping_id: 1 address: 4100 }
location { id: 2 mapping_id: 2 address: 65600 }
location { id: 3 line { function_id: 1 line: 2 } }
function { id: 1 name: 3 filename: 6 }
string_table: ["", "samples", "count", "main", "/usr/lib/libx.so", "/opt/lib/libx.so", "main.c"]
PB
# a function named "<unknown>" or "[libx.so]" is not the frame without a
# name pprof prints so (NodeInfo Name "" with no Objfile nor start line,
# or Objfile /lib/libx.so): nameless lines and locations without lines, in
# no mapping and in one of an empty file name, are one node beside each
pbtext named-unknown <<'PB'
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 9 value: 5 }
sample { location_id: 2 location_id: 9 value: 3 }
sample { location_id: 3 location_id: 9 value: 7 }
sample { location_id: 4 location_id: 9 value: 2 }
sample { location_id: 5 location_id: 9 value: 4 }
sample { location_id: 6 location_id: 2 location_id: 9 value: 1 }
sample { location_id: 7 location_id: 5 location_id: 9 value: 6 }
mapping { id: 1 memory_start: 4096 memory_limit: 8192 filename: 6 }
mapping { id: 2 memory_start: 65536 memory_limit: 131072 }
location { id: 1 address: 100 line { function_id: 1 line: 9 } }
location { id: 2 address: 200 line { function_id: 2 line: 3 } }
location { id: 3 address: 300 }
location { id: 4 mapping_id: 1 address: 4100 }
location { id: 5 address: 500 line { function_id: 3 line: 1 } }
location { id: 6 mapping_id: 2 address: 65600 line { function_id: 1 line: 4 } }
location { id: 7 mapping_id: 2 address: 65700 }
location { id: 9 line { function_id: 4 line: 2 } }
function { id: 1 name: 0 }
function { id: 2 name: 4 filename: 5 }
function { id: 3 name: 7 filename: 5 }
function { id: 4 name: 3 filename: 5 }
string_table: ["", "samples", "count", "main", "<unknown>", "main.c", "/lib/libx.so", "[libx.so]"]
PB
for f in "$tmp"/two-binaries.pb "$tmp"/start-lines.pb "$tmp"/two-dirs.pb "$tmp"/named-unknown.pb \
  "$TD"/pprof-from-r/r-prof-profile__1.out.prof.pb.gz; do
  [ -f "$f" ] || continue
  for mode in top-sums top-walk; do
    export PCOL_DEBUG=$mode
    top "$f" -nodecount=1000 -- -n 1000
    top "$f" -lines -nodecount=1000 -- --by line -n 1000
    top "$f" -filefunctions -nodecount=1000 -- --by filefunction -n 1000
    top "$f" -addresses -nodecount=1000 -- --by address -n 1000
  done
  unset PCOL_DEBUG
  same '/^Showing nodes/' peek "$f" -peek . -- .
  same '/^Showing nodes/' tree "$f" -tree -lines -- --by line
done
# ... and in -dot, where a function's name is split at its dots, though it
# looks like a mapping's "[libx.so]" (the header names the file: not compared)
same '/^N1 \[/' graph "$tmp/named-unknown.pb" -dot --
# ... the same nodes when the files are many (pcol top DIR: one table of
# names for all files; pprof merges the profiles)
mkdir -p "$tmp/nameless"
for b in two-binaries start-lines two-dirs named-unknown; do
  "$PCOL" pack "$tmp/$b.pb" -o "$tmp/nameless/$b.pcol" || bad "pack $b"
done
checked=$((checked + 1))
gv -top "$tmp"/two-binaries.pb "$tmp"/start-lines.pb "$tmp"/two-dirs.pb "$tmp"/named-unknown.pb
"$PCOL" top "$tmp/nameless" >"$tmp/pv/$J" 2>&1
pcrc
want '/^Showing/' "$tmp/gv/$J" "pprof -top of 4 nameless profiles vs pcol top DIR"

# no node left (every one under --node-fraction): pprof's unit stays
# "minimum", each number in its own unit ("Dropped 10 nodes (cum <= 200ms)")
{
  echo 'sample_type { type: 1 unit: 2 }'
  for i in 0 1 2 3 4 5 6 7 8 9; do
    echo "sample { location_id: $((i + 1)) value: 100000000 }"
    echo "location { id: $((i + 1)) line { function_id: $((i + 1)) line: 1 } }"
    echo "function { id: $((i + 1)) name: $((i + 4)) filename: 3 }"
  done
  echo 'string_table: "" string_table: "cpu" string_table: "nanoseconds" string_table: "x.go"'
  for i in 0 1 2 3 4 5 6 7 8 9; do echo "string_table: \"f$i\""; done
} | pbtext nonodes
top "$tmp/nonodes.pb" -nodefraction=0.2 -- --node-fraction 0.2
same '/^Showing nodes/' tree "$tmp/nonodes.pb" -tree -nodefraction=0.2 -- --node-fraction 0.2
checked=$((checked + 1)) # -dot: the legend's line (which names the file)
go tool pprof -symbolize=none -dot -nodefraction=0.2 "$tmp/nonodes.pb" 2>/dev/null | grep -o 'Dropped[^\\]*' >"$tmp/go.txt"
"$PCOL" graph "$tmp/nonodes.pb" --node-fraction 0.2 2>&1 | grep -o 'Dropped[^\\]*' >"$tmp/pc.txt"
[ -s "$tmp/go.txt" ] && cmp -s "$tmp/go.txt" "$tmp/pc.txt" ||
  { bad "nonodes.pb: -dot's Dropped line (< pprof, > pcol)"; diff "$tmp/go.txt" "$tmp/pc.txt"; }
# ... and the report page's call graph (its note), run in node
if command -v node >/dev/null; then
  checked=$((checked + 1))
  "$PCOL" report "$tmp/nonodes.pb" -o "$tmp/nonodes.html" 2>/dev/null || bad "report nonodes.pb"
  printf '{"name":"nonodes","input":"%s","html":"%s","dropped":{"nf":0.2,"want":"%s","only":1}}\n' \
    "$tmp/nonodes.pb" "$tmp/nonodes.html" "$(cat "$tmp/go.txt")" >"$tmp/nonodes.json"
  node tests/report/compute.test.mjs "$PCOL" "$tmp/nonodes.json" >"$tmp/node.txt" 2>&1 ||
    { bad "nonodes.pb: the report page's graph note vs pprof -dot's Dropped line"; grep -a FAIL "$tmp/node.txt" | head -3; }
fi

# a numeric label named in its key's unit (pprof's NumLabelUnits), not
# its own: sz given in bytes once, then without a unit (100B, 4kB), or in
# kilobytes (100B: pprof warns); request without any unit (bytes)
for nk in 'ml sz' 'ml2 sz' 'ml3 request'; do
  n=${nk% *} k=${nk#* }
  u1=; [ "$n" = ml2 ] && u1="num_unit: 11"
  u0=; [ "$n" != ml3 ] && u0="num_unit: 9"
  two=; [ "$n" != ml2 ] && two="label { key: 8 num: 4096 }"
  {
    echo 'sample_type { type: 1 unit: 2 }'
    echo 'sample { location_id: 1 value: 5 label { key: 3 str: 4 } label { key: 3 str: 5 } }'
    echo "sample { location_id: 2 value: 3 label { key: 3 str: 5 } label { key: 8 num: 2048 $u0 } }"
    echo "sample { location_id: 2 value: 2 label { key: 8 num: 100 $u1 } $two }"
    echo 'location { id: 1 line { function_id: 1 line: 1 } } location { id: 2 line { function_id: 2 line: 2 } }'
    echo 'function { id: 1 name: 6 filename: 10 } function { id: 2 name: 7 filename: 10 }'
    echo "string_table: [\"\", \"samples\", \"count\", \"k\", \"a\", \"b\", \"X\", \"Y\", \"$k\", \"bytes\", \"t.go\", \"kilobytes\"]"
  } | pbtext "$n"
  same 1 tags "$tmp/$n.pb" -tags --
  traces "$tmp/$n.pb" --
  # top --by label:KEY's rows are named as -tags names them
  checked=$((checked + 1))
  go tool pprof -symbolize=none -tags -tagshow="^$k\$" "$tmp/$n.pb" 2>/dev/null |
    awk 'NR > 1 && NF { print $NF }' | sort >"$tmp/go.txt"
  "$PCOL" top "$tmp/$n.pb" --by label:"$k" 2>/dev/null | sed -n '/flat%/,$p' | awk 'NR > 1 { print $NF }' | sort >"$tmp/pc.txt"
  [ -s "$tmp/go.txt" ] && cmp -s "$tmp/go.txt" "$tmp/pc.txt" ||
    { bad "$n.pb: top --by label:$k's rows vs pprof -tags' values (< pprof, > pcol)"; diff "$tmp/go.txt" "$tmp/pc.txt"; }
done

# a numeric label key given in several units: pprof warns before every
# report (driver.go identifyNumLabelUnits), "For tag sz used unit bytes,
# also encountered unit(s) kilobytes, megabytes"; pcol the same lines
# (pprof's map order: compared sorted), on every view, under a base whose
# labels add a unit, and not at all where pprof is silent
pbtext mu <<'PB'
sample_type { type: 1 unit: 2 }
sample { location_id: 1 value: 5 label { key: 3 num: 100 num_unit: 9 } label { key: 4 num: 7 num_unit: 12 } }
sample { location_id: 1 value: 3 label { key: 3 num: 2 num_unit: 11 } label { key: 4 num: 7 num_unit: 13 } }
sample { location_id: 1 value: 2 label { key: 3 num: 4 num_unit: 10 } label { key: 4 num: 8 } }
location { id: 1 line { function_id: 1 line: 1 } }
function { id: 1 name: 5 filename: 6 }
string_table: ["", "samples", "count", "sz", "dur", "f", "a.go", "x", "y", "bytes", "kilobytes", "megabytes", "ms", "seconds"]
PB
pbtext mu-base <<'PB'
sample_type { type: 1 unit: 2 }
sample { location_id: 1 value: 1 label { key: 3 num: 100 num_unit: 7 } }
location { id: 1 line { function_id: 1 line: 1 } }
function { id: 1 name: 5 filename: 6 }
string_table: ["", "samples", "count", "sz", "dur", "f", "a.go", "gigabytes"]
PB
warned() { # FILE PPROF-ARGS -- PCOL-VIEW PCOL-ARGS: pprof's unit warnings = pcol's
  local f=$1 pp=() pc=()
  shift
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  checked=$((checked + 1))
  gv "${pp[@]}" "$f"
  "$PCOL" "${pc[0]}" "$f" "${pc[@]:1}" 2>"$tmp/pv/$J" >/dev/null
  pcrc
  want fortag "$tmp/gv/$J" "$(basename "$f"): unit warnings of pprof ${pp[*]} vs pcol ${pc[*]} (< pprof, > pcol)"
}
for f in "$tmp/mu.pb" "$tmp/ml.pb" "$nums" "$lab"; do
  warned "$f" -top -- top
  warned "$f" -tags -- tags
  warned "$f" -traces -- traces
  warned "$f" -peek . -- peek .
  warned "$f" -tree -- tree
  warned "$f" -list . -- list .
  warned "$f" -dot -- graph
done
warned "$tmp/mu.pb" -tags -tagshow=sz -- top --by label:sz
warned "$tmp/mu.pb" -top -tagfocus=sz=1kb: -- top --tag sz=1kb:
warned "$tmp/mu.pb" -top -tagroot=dur -- top --tagroot dur
for o in base diff_base; do
  warned "$tmp/mu.pb" -top -$o="$tmp/mu-base.pb" -- top --${o/_/-} "$tmp/mu-base.pb"
  warned "$tmp/mu-base.pb" -traces -$o="$tmp/mu.pb" -- traces --${o/_/-} "$tmp/mu.pb"
done

# --base/--diff-base of the same type in another unit of its family (cpu
# in nanoseconds, the base in microseconds, the period too): pprof's
# ScaleProfiles takes the coarser into the finer unit before the merge;
# a period type of another name is refused
for n in ns:nanoseconds:5000:3000 us:microseconds:1:2; do
  IFS=: read -r name unit v1 v2 <<<"$n"
  pbtext "unit-$name" <<PB
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 2 value: $v1 }
sample { location_id: 2 value: $v2 }
location { id: 1 line { function_id: 1 line: 3 } }
location { id: 2 line { function_id: 2 line: 7 } }
function { id: 1 name: 3 filename: 5 }
function { id: 2 name: 4 filename: 5 }
period_type { type: 1 unit: 2 } period: 10
string_table: ["", "cpu", "$unit", "leaf", "main", "a.go"]
PB
done
# a unit go tool pprof does not know prints raw, as go prints it: pcol's
# time family has ps and fs only as the Perun importer spells them
for unit in picoseconds picosecond femtoseconds; do
  pbtext "unit-$unit" <<PB
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 2 value: 1760000000 }
sample { location_id: 2 value: 3 }
location { id: 1 line { function_id: 1 line: 3 } }
location { id: 2 line { function_id: 2 line: 7 } }
function { id: 1 name: 3 filename: 5 }
function { id: 2 name: 4 filename: 5 }
string_table: ["", "cpu", "$unit", "leaf", "main", "a.go"]
PB
  top "$tmp/unit-$unit.pb" --
done
for pair in "ns us" "us ns"; do
  set -- $pair
  for o in base diff_base; do
    top "$tmp/unit-$1.pb" -$o="$tmp/unit-$2.pb" -- --${o/_/-} "$tmp/unit-$2.pb"
    same '/^Showing nodes/' peek "$tmp/unit-$1.pb" -peek . -$o="$tmp/unit-$2.pb" -- . --${o/_/-} "$tmp/unit-$2.pb"
    traces "$tmp/unit-$1.pb" -$o="$tmp/unit-$2.pb" -- --${o/_/-} "$tmp/unit-$2.pb"
  done
done
set --
ruby=$TD/ext/pprof/ruby-cpu-pyroscope.pb.gz gocpu=$TD/ext/pprof/go-cpu-unknown.pb.gz
if [ -f "$ruby" ] && [ -f "$gocpu" ]; then
  checked=$((checked + 1))
  go tool pprof -symbolize=none -top -base="$gocpu" "$ruby" >"$tmp/go.txt" 2>&1
  gr=$? gm=$(grep -c 'period type: incompatible types' "$tmp/go.txt")
  "$PCOL" top "$ruby" --base "$gocpu" >"$tmp/pc.txt" 2>&1
  pr=$? pm=$(grep -c 'period type: incompatible types' "$tmp/pc.txt")
  [ $gr != 0 ] && [ "$gm" = 1 ] && [ $pr = 1 ] && [ "$pm" = 1 ] ||
    { bad "ruby-cpu-pyroscope --base go-cpu-unknown: pprof exit $gr, pcol $pr (both refuse: period type)"; cat "$tmp/go.txt" "$tmp/pc.txt" | head -4; }
fi

# --base/--diff-base pairs the value types by position, as pprof's
# ScaleProfiles and Profile.compatible: as many types, the same names in
# the same order (units of one family); else both refuse, pcol with
# pprof's reason in its message (go tool exits 1 for pprof's 2)
for n in 'ab:alloc_objects:count:alloc_space:bytes' 'ba:alloc_space:bytes:alloc_objects:count' \
  'abkb:alloc_objects:count:alloc_space:kilobytes' 'aa:alloc_objects:count::'; do
  IFS=: read -r name t1 u1 t2 u2 <<<"$n"
  two= v2=
  [ -n "$t2" ] && two='sample_type { type: 3 unit: 4 }' v2='value: 100'
  pbtext "vt-$name" <<PB
sample_type { type: 1 unit: 2 } $two
sample { location_id: 1 location_id: 2 value: 5 $v2 }
sample { location_id: 2 value: 2 ${v2:+value: 7} }
location { id: 1 line { function_id: 1 line: 1 } }
location { id: 2 line { function_id: 2 line: 2 } }
function { id: 1 name: 5 filename: 7 }
function { id: 2 name: 6 filename: 7 }
string_table: ["", "$t1", "$u1", "${t2:-x}", "${u2:-y}", "leaf", "main", "a.go"]
PB
done
for pair in "ab ba" "ba ab" "ab aa" "aa ab" "ab abkb" "abkb ab" "ba abkb"; do
  set -- $pair
  for o in base diff_base; do
    checked=$((checked + 1))
    go tool pprof -symbolize=none -top -$o="$tmp/vt-$2.pb" "$tmp/vt-$1.pb" >"$tmp/go.txt" 2>&1
    gr=$?
    "$PCOL" top "$tmp/vt-$1.pb" --${o/_/-} "$tmp/vt-$2.pb" >"$tmp/pc.txt" 2>&1
    pr=$?
    if [ $gr = 0 ]; then
      checked=$((checked - 1))
      top "$tmp/vt-$1.pb" -$o="$tmp/vt-$2.pb" -- --${o/_/-} "$tmp/vt-$2.pb"
      continue
    fi
    why=$(sed -n 's/: *{.*//; 1p' "$tmp/go.txt") # its reason, less Go's dump of the types
    [ $pr = 1 ] && [ -n "$why" ] && grep -qF "vt-$2.pb: " "$tmp/pc.txt" && grep -qF "($why" "$tmp/pc.txt" ||
      { bad "vt-$1 -$o vt-$2: pprof exit $gr, pcol $pr (both refuse, pcol naming the base and pprof's reason)"; cat "$tmp/go.txt" "$tmp/pc.txt" | head -4; }
  done
done
set --

# -mean with -base/-diff_base: pprof divides the differences by the
# counts' differences (a count of 0 leaves the sum), and under -diff_base
# its total is the base's |values| over the base's counts, below 0
# (report.go computeTotal: diffTotal / diffDiv): every view, two heap
# profiles both ways, and a profile less itself (every count 0)
h1=$TD/pprof/go-heap-allocs-inline.pb.gz h2=$TD/pprof/go-heap-delta-negative-values.pb.gz
if [ -f "$h1" ] && [ -f "$h2" ]; then
  for pair in "$h1 $h2" "$h2 $h1" "$h1 $h1"; do
    set -- $pair
    # a profile less itself: -peek and -list match nothing, both refuse
    # saying so (compared); else go's side not empty
    r= pk='/^Showing nodes/'
    [ "$1" = "$2" ] && r=r pk='grepo:no matches found for regexp: .*'
    for o in base diff_base; do
      for si in alloc_space inuse_space; do
        a=(-mean -sample_index=$si -$o="$2") c=(--mean --value $si --${o/_/-} "$2")
        top "$1" "${a[@]}" -- "${c[@]}"
        same '/^Showing nodes/' tree "$1" -tree "${a[@]}" -- "${c[@]}"
        refuse=$r same "$pk" peek "$1" -peek 'Unmarshal$' "${a[@]}" -- 'Unmarshal$' "${c[@]}"
        traces "$1" "${a[@]}" -- "${c[@]}"
        same 4 graph "$1" -dot "${a[@]}" -- "${c[@]}"
        # -list: its total and each function's sums (the sources are not here)
        checked=$((checked + 1))
        gv -list 'Unmarshal$' "${a[@]}" "$1"
        "$PCOL" list "$1" 'Unmarshal$' "${c[@]}" >"$tmp/pv/$J" 2>&1
        pcrc
        want 'grepo:^(Total|ROUTINE| +[^ ]+ +[^ ]+ \(flat).*|no matches found for regexp: .*' "$tmp/gv/$J" \
          "$(basename "$1") -list -mean -$o $(basename "$2") -sample_index=$si (< pprof, > pcol)" "${r:-n}"
      done
    done
  done
  set --
fi

# list --drop-negative under a base of another binary: pprof's -list nodes
# keep a line of one binary apart from the same line of another (report.go
# newGraph's ObjNames), so -drop_negative drops the base's negative line
# and keeps the profile's, and the listed line is the sum of those left
mkdir -p "$tmp/src"
for i in $(seq 1 15); do echo "// line $i"; done >"$tmp/src/w.go"
for n in "bin1:/bin/app:5:7" "bin2:/bin/app2:8:2"; do
  IFS=: read -r name file v1 v2 <<<"$n"
  pbtext "$name" <<PB
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 3 value: $v1 }
sample { location_id: 2 location_id: 3 value: $v2 }
mapping { id: 1 memory_start: 4096 memory_limit: 8192 filename: 6 has_functions: true }
location { id: 1 mapping_id: 1 address: 4100 line { function_id: 1 line: 10 } }
location { id: 2 mapping_id: 1 address: 4200 line { function_id: 1 line: 12 } }
location { id: 3 mapping_id: 1 address: 4300 line { function_id: 2 line: 3 } }
function { id: 1 name: 3 filename: 5 start_line: 9 }
function { id: 2 name: 4 filename: 5 start_line: 1 }
string_table: ["", "samples", "count", "work", "main", "w.go", "$file"]
PB
done
for pair in "bin1 bin2" "bin2 bin1"; do
  set -- $pair
  for o in base diff_base; do
    for d in -drop_negative ""; do
      same '/^Total/' list "$tmp/$1.pb" -list work $d -source_path="$tmp/src" -$o="$tmp/$2.pb" -- \
        work ${d:+--drop-negative} --source-path "$tmp/src" --${o/_/-} "$tmp/$2.pb"
    done
  done
done
set --

# diff --tagroot K (and flame --diff, top --base/--diff-base) with K a
# label key of one side only: pprof merges the two first, so the other
# side's frames are "<unknown>", and so are all with a key of neither side
# (pprof warns "TagRoot expression matched no samples": tagwarned below)
for n in "tr1:5:7:worker" "tr2:8:2:other"; do
  IFS=: read -r name v1 v2 key <<<"$n"
  pbtext "$name" <<PB
sample_type { type: 1 unit: 2 }
sample { location_id: 1 location_id: 3 value: $v1 label { key: 6 str: 7 } }
sample { location_id: 2 location_id: 3 value: $v2 }
location { id: 1 line { function_id: 1 line: 10 } }
location { id: 2 line { function_id: 1 line: 12 } }
location { id: 3 line { function_id: 2 line: 3 } }
function { id: 1 name: 3 filename: 5 }
function { id: 2 name: 4 filename: 5 }
string_table: ["", "samples", "count", "work", "main", "w.go", "$key", "a"]
PB
done
for pair in "tr1 tr2" "tr2 tr1"; do
  set -- $pair
  for k in worker other nokey; do
    diffcmp "$tmp/$2.pb" "$tmp/$1.pb" "" 0 "$k" ""
    diffcmp "$tmp/$2.pb" "$tmp/$1.pb" cum 0 "$k" ""
    for o in diff_base base; do
      top "$tmp/$1.pb" -nodefraction=0 -$o="$tmp/$2.pb" -tagroot=$k -- --node-fraction 0 --${o/_/-} "$tmp/$2.pb" --tagroot $k
    done
  done
done
set --
# --tagroot/--tagleaf with a key no sample has (of neither side): pprof's
# warning, a line per option ("," is a list of no keys: no frames, the
# warning), exit 0, on every view that takes them; the frames "<unknown>"
tagwarned() { # FILE PPROF-ARGS -- PCOL-VIEW PCOL-ARGS (FILE "": the args name the files)
  local f=$1 pp=() pc=() rc out=$tmp/pc.o
  shift
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  [ "${pc[-2]}" = -o ] && out=${pc[-1]} && rm -f "$out"
  checked=$((checked + 1))
  gv "${pp[@]}" ${f:+"$f"}
  "$PCOL" "${pc[0]}" ${f:+"$f"} "${pc[@]:1}" 2>"$tmp/pv/$J" >"$tmp/pc.o"
  rc=$?
  echo $rc >"$tmp/pv/$J.rc"
  [ $rc = 0 ] && [ -s "$out" ] || { bad "pprof ${pp[*]} vs pcol ${pc[*]}: exit $rc, no output"; head -3 "$tmp/pv/$J"; }
  # (the warnings judged after the sessions)
  want "matched:${pc[0]}" "$tmp/gv/$J" "pprof ${pp[*]} vs pcol ${pc[*]}: warnings (< pprof, > pcol):"
}
for o in "tagroot=nokey" "tagleaf=nokey" "tagroot=nokey tagleaf=nokey" "tagroot=worker,nokey" \
  "tagroot=nokey tagleaf=kind" "tagroot=, tagleaf=worker" "tagleaf=,"; do
  pp=() pc=()
  for x in $o; do pp+=("-$x") pc+=("--${x%%=*}" "${x#*=}"); done
  tagwarned "$lab" -top "${pp[@]}" -- top "${pc[@]}"
  top "$lab" -nodefraction=0 "${pp[@]}" -- --node-fraction 0 "${pc[@]}"
  traces "$lab" "${pp[@]}" -- "${pc[@]}"
done
for o in "tagroot=nokey" "tagroot=kind tagleaf=nokey"; do
  pp=() pc=()
  for x in $o; do pp+=("-$x") pc+=("--${x%%=*}" "${x#*=}"); done
  tagwarned "$lab" -traces "${pp[@]}" -- traces "${pc[@]}"
  tagwarned "$lab" -peek . "${pp[@]}" -- peek . "${pc[@]}"
  tagwarned "$lab" -tree "${pp[@]}" -- tree "${pc[@]}"
  tagwarned "$lab" -dot "${pp[@]}" -- graph "${pc[@]}"
  tagwarned "$lab" -list . "${pp[@]}" -- list . "${pc[@]}"
  tagwarned "$lab" -tags "${pp[@]}" -- tags "${pc[@]}"
  # the views pprof has no text of: its warning, and the frames -traces shows
  tagwarned "$lab" -traces "${pp[@]}" -- fold "${pc[@]}"
  tagwarned "$lab" -traces "${pp[@]}" -- flame "${pc[@]}" -o "$tmp/fl.svg"
  tagwarned "$lab" -traces "${pp[@]}" -- report "${pc[@]}" -o "$tmp/rep.html"
done
# the filters' warnings (driver_focus.go applyFocus: an expression that
# matched nothing, "Interpreted ... as range" of a tag filter's range), in
# pprof's order, on a view that goes on (exit 0): a label key no sample
# has matches nothing; what matched is pprof's (locations of the samples
# its merge keeps, not those of samples whose every value is 0 or that
# have no locations; label keys of the samples the filters keep); and
# pprof_gen.py's random profiles where a search found pcol apart
for s in 9 14 29 33 36; do
  python3 tests/support/pprofgen.py random "$tmp/rnd$s.pb" $s || bad "pprofgen.py random $s"
done
for row in "$lab|-top -tagfocus=nokey=x" "$lab|-top -tagignore=nokey=x -cum" "$lab|-peek . -tagignore=nokey=1kb" \
  "$lab|-traces -tagshow=zzz -taghide=yyy" "$lab|-tree -focus=nomatch -ignore=zz -hide=zz -show=main -show_from=qq" \
  "$lab|-tags -tagfocus=worker=x -tagignore=kind=nomatch -tagshow=kind" "$nums|-top -tagfocus=1kb: -tagignore=bytes=:1kb" \
  "$tmp/rnd9.pb|-tags -ignore=app -tagfocus=worker=b,c" "$tmp/rnd14.pb|-top -taghide=bytes" \
  "$tmp/rnd33.pb|-traces -sample_index=samples -hide=nomatch -show=Run -show_from=app"; do
  f=${row%%|*} pp=() pc=()
  for x in ${row#*|}; do
    pp+=("$x")
    case $x in
    -top | -traces | -tree | -tags) pc=("${x#-}" "${pc[@]}") ;;
    -peek) pc=(peek "${pc[@]}") ;;
    .) pc+=(.) ;;
    -cum) pc+=(--sort cum) ;;
    -tagfocus=*) pc+=(--tag "${x#*=}") ;;
    -tagignore=*) pc+=(--tag-ignore "${x#*=}") ;;
    -sample_index=*) pc+=(--value "${x#*=}") ;;
    *) x=${x%%=*} pc+=("-${x//_/-}" "${pp[-1]#*=}") ;;
    esac
  done
  tagwarned "$f" "${pp[@]}" -- "${pc[@]}"
done
# a pprof profile without a period type has pprof's empty one, which
# another is not compatible with: a base of another kind is refused
PS_CLI=1 refuse=r top "$tmp/rnd29.pb" -base="$tmp/rnd36.pb" -- --base "$tmp/rnd36.pb" # (the command line: a refused base ends a session)

# fold --tagroot nokey: each stack of fold's under a frame "<unknown>"
checked=$((checked + 1))
"$PCOL" fold "$lab" | sed 's/^/<unknown>;/' >"$tmp/fold.want"
"$PCOL" fold "$lab" --tagroot nokey 2>/dev/null >"$tmp/fold.got"
[ -s "$tmp/fold.want" ] && cmp -s "$tmp/fold.want" "$tmp/fold.got" ||
  { bad "fold --tagroot nokey is not fold under <unknown> (< want, > pcol):"; diff "$tmp/fold.want" "$tmp/fold.got" | head -5; }
# two sides: pprof -diff_base (-base) merges them, so a key of one side is
# a match, none of neither (diff, flame --diff, top --base/--diff-base)
for k in worker other nokey; do
  for pair in "tr1 tr2" "tr2 tr1"; do
    set -- $pair
    tagwarned "" -top -tagroot=$k -diff_base="$tmp/$1.pb" "$tmp/$2.pb" -- diff "$tmp/$1.pb" "$tmp/$2.pb" --tagroot $k
    tagwarned "" -top -tagleaf=$k -diff_base="$tmp/$1.pb" "$tmp/$2.pb" -- flame "$tmp/$2.pb" --diff "$tmp/$1.pb" --tagleaf $k -o "$tmp/fl.svg"
    tagwarned "" -top -tagroot=$k -base="$tmp/$1.pb" "$tmp/$2.pb" -- top "$tmp/$2.pb" --base "$tmp/$1.pb" --tagroot $k
  done
done
set --

# traces --base: pprof merges the profile and the base each alone first, so
# X, whose samples cancel in the profile, takes the base's place, after Y
for n in 'oa:sample { location_id: 1 value: 5 } sample { location_id: 1 value: -5 } sample { location_id: 2 value: 3 }' \
  'ob:sample { location_id: 1 value: 2 }' 'oc:sample { location_id: 1 value: 4 } sample { location_id: 2 value: 1 }'; do
  pbtext "${n%%:*}" <<PB
sample_type { type: 1 unit: 2 }
${n#*:}
location { id: 1 line { function_id: 1 line: 1 } }
location { id: 2 line { function_id: 2 line: 2 } }
function { id: 1 name: 3 filename: 5 }
function { id: 2 name: 4 filename: 5 }
string_table: ["", "alloc_space", "bytes", "X", "Y", "t.go"]
PB
done
for pair in "oa ob" "ob oa" "oa oc" "oc oa"; do
  set -- $pair
  traces "$tmp/$1.pb" -base="$tmp/$2.pb" -- --base "$tmp/$2.pb"
  traces "$tmp/$1.pb" -diff_base="$tmp/$2.pb" -- --diff-base "$tmp/$2.pb"
done
set --

# drop_frames/keep_frames: pprof prunes every stack by them as it reads a
# profile (profile/prune.go; doc/mappings.md §2.1), pcol's importer too:
# views over frames matched on their simplified names (a leading '.', the
# arguments cut, "(anonymous namespace)" and "operator()" kept), inline
# chains cut on an inner line or the outermost, stacks of nothing but such
# frames and such frames at the root kept, keep_frames overriding (df1) or
# not there (df2); under -focus/-hide, -tagfocus, -lines, -noinlines.  An
# expression Go refuses prunes nothing, in pprof silently, in pcol with a
# warning (df3, df4: a bad keep_frames; df5: keep_frames alone is nothing);
# one Go reads but pcol cannot match as Go does is refused (df6).  pcol's
# pprof export, read by pprof, = the source read by pprof (top, tree,
# traces; df1 and random profiles: gogo below).
DFRX='malloc.*|operator new|ns::\(anonymous namespace\)::alloc|ppc_alloc|runtime\..*|Foo::operator\(\)'
for a in "df1;$DFRX;runtime\\.main" "df2;$DFRX;" "df3;malloc(;" "df4;malloc.*;runtime\\.(main" "df5;;malloc.*" \
  "df6;(?m)^malloc\$|app\\.work;"; do
  IFS=';' read -r n d k <<<"$a"
  python3 tests/support/pprofgen.py dropframes "$tmp/p/$n.pb" "$d" "$k" || bad "pprofgen.py dropframes $n"
done
for n in df1 df2 df3 df4 df5; do
  f=$tmp/p/$n.pb
  traces "$f" --
  top "$f" -nodefraction=0 -- --node-fraction 0
done
f=$tmp/p/df1.pb
top "$f" -cum -nodefraction=0 -- --sort cum --node-fraction 0
same '/^Showing nodes/' peek "$f" -peek . -- .
same '/^Showing nodes/' peek "$f" -peek 'malloc|app\.' -- 'malloc|app\.'
same '/^Showing nodes/' tree "$f" -tree -nodefraction=0 -- --node-fraction 0
top "$f" -focus=main -hide=work -nodefraction=0 -- --focus main --hide work --node-fraction 0
top "$f" -focus=malloc -ignore=helper -nodefraction=0 -- --focus malloc --ignore helper --node-fraction 0
traces "$f" -hide=main -show_from=app -- --hide main --show-from app
top "$f" -tagfocus=k=b -nodefraction=0 -- --tag k=b --node-fraction 0
top "$f" -lines -nodefraction=0 -- --by line --node-fraction 0
top "$f" -noinlines -nodefraction=0 -- --no-inlines --node-fraction 0
top "$f" -sample_index=samples -nodefraction=0 -- --value samples --node-fraction 0
top "$TD"/ext/legacy-proto/legacy-go-heap-text.heap.proto.pb.gz -nodefraction=0 -- --node-fraction 0
for n in df3 df4; do
  checked=$((checked + 1))
  "$PCOL" top "$tmp/p/$n.pb" >/dev/null 2>"$tmp/$n.err" &&
    grep -q "which Go refuses too: no frames dropped" "$tmp/$n.err" ||
    bad "$n.pb: pcol top did not warn that its bad drop_frames/keep_frames drops nothing: $(cat "$tmp/$n.err")"
done
checked=$((checked + 1))
if "$PCOL" top "$tmp/p/df6.pb" >/dev/null 2>"$tmp/df6.err"; then
  bad "df6.pb: pcol top read a drop_frames it cannot match as Go does (exit 0)"
else
  grep -q "pcol cannot match it as Go does" "$tmp/df6.err" || bad "df6.pb: pcol top's refusal: $(cat "$tmp/df6.err")"
fi
# gogo RULE FILE EXPORT GO-ARGS...: go tool pprof's view of pcol's pprof
# export EXPORT against its view of the source FILE
gogo() {
  local rule=$1 f=$2 e=$3
  shift 3
  checked=$((checked + 1))
  gv "$@" "$e"
  local g=$tmp/gv/$J
  J=$((J + 1))
  ps_plan "$tmp/gv/$J" "$@" "$f"
  ln -s "$g" "$tmp/pv/$J" && echo 0 >"$tmp/pv/$J.rc"
  want "$rule" "$tmp/gv/$J" "${f##*/}: go tool pprof $* of the source vs of pcol's pprof export (< source, > export):"
}
# pcol's pprof export of a pruned profile holds its stacks as go prunes
# them and writes no drop_frames/keep_frames, so go reads them as it reads
# the source: df1's last sample (a location cut on an inner line before
# the stack's first other frame, which go would take for such a frame were
# the export to ask it to prune again), and random profiles of
# pprofgen.py's whose pruning is not idempotent (random 10, 150, 250: go
# gave alpha a cum of 2869us for random 150 and -206us for the export that
# kept drop_frames)
for s in 10 150 250; do
  python3 tests/support/pprofgen.py random "$tmp/p/rand-$s.pb" $s || bad "pprofgen.py random $s"
done
for f in "$f" "$tmp"/p/rand-*.pb; do
  e=${f%.pb}-pcol.pb.gz
  "$PCOL" unpack "$f" --to pprof -o "$e" || bad "pcol unpack ${f##*/} --to pprof"
  gogo '/^Showing nodes/' "$f" "$e" -top -nodefraction=0
  gogo '/^Showing nodes/' "$f" "$e" -top -nodefraction=0 -sample_index=0
  gogo '/^Showing nodes/' "$f" "$e" -tree -nodefraction=0 -edgefraction=0
  gogo '/^-----------+/' "$f" "$e" -traces
done
f=$tmp/p/df1.pb

# top --by label:KEY = -tagroot=KEY's frames (named by the value, in file
# KEY), which the name filters see before they run: their warnings too
# ("^k$" matches every frame's file, "^a$" one's name: no warning)
for x in "hide ^k\$" "hide ^a\$" "hide nomatch" "focus ^k\$" "show ^k\$" "ignore ^b\$" "show_from ^k\$"; do
  read -r o re <<<"$x"
  tagwarned "$tmp/p/df1.pb" -top -tagroot=k "-$o=$re" -- top --by label:k "--${o/_/-}" "$re"
done

# ---- go's sessions, then every comparison planned ----
ps_run
fail=$((fail + PS_FAILS))
printf '%s\n' "${MAN[@]}" >"$tmp/manifest"
python3 tests/interop/semantics_judge.py "$tmp" >"$tmp/judged" || bad "the judge failed"
nj=0
while IFS=$'\t' read -r kind x why; do
  case $kind in
  N) nj=$x ;;
  F)
    for m in "${MAN[@]}"; do [ "${m%%$'\t'*}" = "$x" ] && break; done
    bad "${m##*$'\t'} [$why]"
    diff -a "$tmp/j/$x.go" "$tmp/j/$x.pc" | head -8
    ;;
  esac
done <"$tmp/judged"
[ "$nj" = ${#MAN[@]} ] || bad "judged $nj of ${#MAN[@]} comparisons"

echo "pprof semantics: $checked comparisons, $fail failed"
[ $fail = 0 ]
