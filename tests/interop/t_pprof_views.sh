#!/usr/bin/env bash
# pcol's views against go tool pprof's, text for text: `pcol top` (sort,
# node fraction, -n, units, "(inline)"), `pcol peek` (pprof -peek, also
# with -lines) and the filters --focus/--ignore/
# --hide/--show/--tag/--tag-ignore, on every pprof profile of the shared
# test data (ext/ included).  The lines from "Showing nodes accounting for"
# on must be identical to `go tool pprof -top` with the same options.
#
# Env: PCOL (pcol binary), PCOL_TESTDATA (default ../shared/testdata).
# Exit 0 pass, 1 fail, 77 skip (no Go).
set -u
if ! command -v go >/dev/null 2>&1; then
  echo "SKIP: go not installed (apt-get install golang-go to compare pcol's views with go tool pprof)"
  exit 77
fi
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home PPROF_BINARY_PATH=/nonexistent GOCACHE=$tmp/gocache GOPROXY=off \
  GOTOOLCHAIN=local TZ=UTC
mkdir -p "$HOME"
fail=0 checked=0

# compare VIEW FILE PPROF-ARGS -- PCOL-ARGS: `pcol VIEW FILE PCOL-ARGS` prints
# what `go tool pprof PPROF-ARGS FILE` does from "Showing nodes" on (from
# the first line with FROM=1)
compare() {
  local view=$1 f=$2
  shift 2
  local pp=() pc=()
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  local from='/^Showing nodes/,$p'
  [ -n "${FROM:-}" ] && from=p
  go tool pprof -symbolize=none "${pp[@]}" "$f" 2>/dev/null | sed -n "$from" >"$tmp/go.txt"
  "$PCOL" "$view" "$f" "${pc[@]}" 2>/dev/null | sed -n "$from" >"$tmp/pc.txt"
  judge "$tmp/go.txt" "$(basename "$f"): go tool pprof ${pp[*]} vs pcol $view ${pc[*]}"
}
judge() { # judge GO-TEXT LABEL: $tmp/pc.txt must be GO-TEXT
  checked=$((checked + 1))
  if ! cmp -s "$1" "$tmp/pc.txt"; then
    echo "FAIL: $2 (< pprof, > pcol):"
    diff "$1" "$tmp/pc.txt" | head -10
    fail=$((fail + 1))
  fi
}
same() { local f=$1; shift; compare top "$f" -top "$@"; }   # pcol top = pprof -top
peek() { local f=$1; shift; compare peek "$f" "$@"; }       # pcol peek = pprof -peek

# The seven views of every file (the loop below) from one go tool pprof
# process, through its interactive commands (each option set again before
# each view: a session keeps them): each parse of a large profile costs a
# second or more, a view little.  FLAGS[k] is the command line the session's
# view k stands for (checked to give the same text in t_pprof_semantics'
# way: tests/interop/t_pprof_views.sh compares the first file both ways).
FLAGS=("-top" "-top -cum" "-top -nodefraction=0" "-top -nodefraction=0.05 -cum"
  "-top -addresses -nodefraction=0" "-peek ." "-peek main|runtime\\. -cum")
SESSION=(nodecount=0
  sort=flat nodefraction=0.005 granularity=functions top
  sort=cum top
  sort=flat nodefraction=0 top
  sort=cum nodefraction=0.05 top
  sort=flat nodefraction=0 granularity=addresses top
  sort=flat nodefraction=0.005 granularity=functions "peek ."
  sort=cum "peek main|runtime\\."
  quit)
session() { # session FILE: $tmp/s.1 .. $tmp/s.7 (each view's text from "Showing nodes" on)
  local f=$1 i idx=()
  for i in "${!SESSION[@]}"; do
    case ${SESSION[$i]} in top | peek\ *) idx+=($((i + 1))) ;; esac
  done
  printf '%s\n' "${SESSION[@]}" | go tool pprof -symbolize=none "$f" 2>/dev/null |
    perl -0777 -e '$_ = <STDIN>; my @s = split /\(pprof\) /, $_, -1; my ($d, @idx) = @ARGV;
      my $k = 1; for my $i (@idx) { my $t = $i < @s ? $s[$i] : "";
        $t = $t =~ /^Showing nodes/m ? substr($t, $-[0]) : "";
        open(my $o, ">", "$d/s.$k") or die; print $o $t; close $o; $k++ }' "$tmp" "${idx[@]}"
}
chk() { # chk K VIEW PCOL-ARGS: pcol VIEW FILE PCOL-ARGS prints session view K
  local k=$1 view=$2
  shift 2
  "$PCOL" "$view" "$f" "$@" 2>/dev/null | sed -n '/^Showing nodes/,$p' >"$tmp/pc.txt"
  judge "$tmp/s.$k" "$(basename "$f"): go tool pprof ${FLAGS[$((k - 1))]} vs pcol $view $*"
}

n=0
for f in "$TD"/pprof/*.pb.gz "$TD"/pprof/*.pb "$TD"/ext/pprof/*; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid-utf8*) continue ;; esac # control bytes: pcol escapes them
  # an OTLP message is not a pprof Profile (go tool pprof misreads its
  # fields as one); pcol reads it as OTLP, judged in tests/cli/t_otlp.sh
  "$PCOL" info "$f" 2>/dev/null | grep -q 'input_format: *otlp' && continue
  n=$((n + 1))
  session "$f"
  chk 1 top
  chk 2 top --sort cum
  chk 3 top --node-fraction 0
  chk 4 top --node-fraction 0.05 --sort cum
  chk 5 top --by address --node-fraction 0
  chk 6 peek .
  chk 7 peek 'main|runtime\.' --sort cum
  if [ $n = 1 ]; then # the session's views are the command line's, on the first file
    same "$f" -- 
    same "$f" -cum -- --sort cum
    same "$f" -nodefraction=0 -- --node-fraction 0
    same "$f" -nodefraction=0.05 -cum -- --node-fraction 0.05 --sort cum
    same "$f" -addresses -nodefraction=0 -- --by address --node-fraction 0
    peek "$f" -peek . -- .
    peek "$f" -peek 'main|runtime\.' -cum -- 'main|runtime\.' --sort cum
  fi
done
[ $n -gt 0 ] || { echo "SKIP: no pprof profiles under $TD"; exit 77; }

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
  same "$g" -focus='\.go$' -- --focus '\.go$' # file names match too
  peek "$g" -lines -peek map -- map --by line
  peek "$g" -addresses -peek map -- map --by address
  same "$g" -addresses -cum -- --by address --sort cum
  peek "$g" -files -peek . -- . --by file # (pprof -files splits a file's nodes in many profiles)
  peek "$g" -peek map -focus=growWork -unit=ms -- map --focus growWork --unit ms
  peek "$g" -peek . -hide=runtime -- . --hide runtime
  peek "$g" -peek . -show='main|map' -- . --show 'main|map'
  peek "$g" -peek nomatch -- nomatch # pprof: an error and no report
fi
l=$TD/pprof/go-cpu-string-labels.pb.gz
if [ -f "$l" ]; then
  same "$l" -tagfocus=function=slow -- --tag function=slow
  same "$l" -tagignore=function=fast -- --tag-ignore function=fast
  same "$l" -tagfocus=function:sl,foo:b -- --tag function:sl,foo:b
  same "$l" -tagfocus=function=fa,sl -tagignore=profile_id=^0 -- --tag function=fa,sl --tag-ignore 'profile_id=^0'
  same "$l" -tagfocus=function=slow -focus=main -cum -- --tag function=slow --focus main --sort cum
  peek "$l" -tagfocus=function=slow -peek . -- . --tag function=slow
fi
h=$TD/pprof/go-heap-allocs-inline.pb.gz
if [ -f "$h" ]; then
  same "$h" -sample_index=alloc_space -hide=runtime -- --value alloc_space --hide runtime
  same "$h" -sample_index=inuse_objects -show=grpc -cum -- --value inuse_objects --show grpc --sort cum
  peek "$h" -sample_index=alloc_space -peek grpc -- grpc --value alloc_space
fi

# pcol list = go tool pprof -list, on profiles of our own Go program whose
# sources are on disk (tests/go, built here), and on the test data (whose
# sources are absent: the " Error: ..." lines must agree too)
# pprof reads any file a profile names; pcol only files under the source
# path unless --allow-any-source (doc/safety.md "What list opens"), so the
# whole-output comparisons give pcol that option, and the sources under the
# test's directory (tests/go, the current directory) are compared without it
compare_list() { FROM=1 compare list "$@" --allow-any-source; } # the whole output
compare_list_default() { FROM=1 compare list "$@"; }
REPO=$(pwd)
mkdir -p "$tmp/gp"
if (cd "$REPO/tests/go" && go run . "$tmp/gp" >"$tmp/go_run.log" 2>&1); then
  for p in "$tmp"/gp/*.pb.gz; do
    compare_list "$p" -list 'main\.' -- 'main\.'
    compare_list_default "$p" -list 'main\.' -- 'main\.'
    compare_list "$p" -list 'allocate|runtime\.mallocgc' -- 'allocate|runtime\.mallocgc'
    compare_list "$p" -list nomatch -- nomatch
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
# types, per pprof profile of the test data (a period of 0 is none)
for f in "$TD"/pprof/*.pb.gz "$TD"/ext/pprof/go-*; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid*) continue ;; esac
  go tool pprof -raw "$f" 2>/dev/null >"$tmp/raw.txt" || continue
  want=$(awk '/^PeriodType:/ { pt = $2 } /^Period:/ { p = $2 == 0 ? "" : $2 } /^Time:/ { t = $2 " " substr($3, 1, 8) }
    /^Samples:/ { getline; vt = $0; gsub(/\[dflt\]/, "", vt); gsub(/ /, ", ", vt) }
    END { print pt "|" p "|" t "|" vt }' "$tmp/raw.txt")
  got=$("$PCOL" info "$f" --format tsv 2>/dev/null | awk -F'\t' 'NR == 2 {
    t = $4 == "NA" ? "" : strftime("%Y-%m-%d %H:%M:%S", $4, 1)
    print ($10 == "NA" ? "" : $10) "|" ($9 == "NA" ? "" : $9) "|" t "|" $12 }')
  checked=$((checked + 1))
  [ "$want" = "$got" ] || { echo "FAIL: $(basename "$f"): pprof -raw says $want, pcol info $got"; fail=$((fail + 1)); }
done

# a filtered export is a real subset: its total is what top says is left
if [ -f "$g" ]; then
  "$PCOL" unpack "$g" --to pprof --focus mapassign -o "$tmp/f.pb.gz" || fail=$((fail + 1))
  a=$(go tool pprof -symbolize=none -top -unit=ms "$tmp/f.pb.gz" 2>/dev/null | sed -n 's/.* of \(.*\) total/\1/p')
  b=$(go tool pprof -symbolize=none -top -unit=ms -focus=mapassign "$g" 2>/dev/null | sed -n 's/.*accounting for \([^,]*\),.*/\1/p')
  checked=$((checked + 1))
  [ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: unpack --focus total $a, pprof -focus $b"; fail=$((fail + 1)); }
fi

# top --by label:KEY: each value's row = what pprof keeps with -tagfocus=KEY=^VALUE$
if [ -f "$l" ]; then
  "$PCOL" top "$l" --by label:function --format tsv | tail -n +2 | cut -f1,6 >"$tmp/lab.tsv"
  [ -s "$tmp/lab.tsv" ] || { echo "FAIL: top --by label:function gave no rows"; fail=$((fail + 1)); }
  while IFS=$'\t' read -r amount value; do
    want=$(go tool pprof -symbolize=none -top -unit=ns -nodefraction=0 -tagfocus="function=^$value\$" "$l" 2>/dev/null |
      sed -n 's/^Showing nodes accounting for \([0-9]*\)ns,.*/\1/p')
    checked=$((checked + 1))
    [ "$want" = "$amount" ] || { echo "FAIL: top --by label:function $value = $amount, pprof -tagfocus $want"; fail=$((fail + 1)); }
  done <"$tmp/lab.tsv"
fi

# top --by label:KEY on a numeric label (heap profiles' "bytes"): pprof
# -tagroot=KEY makes a root frame per raw value (named by the number when
# -unit is the sample unit's base); pcol's rows are named as pprof -tags
# names them ("1.75kB", checked below), so what is compared exactly is the
# total the rows share: the sum of pprof's pseudo-frame cums = the sum of
# pcol's rows
for f in "$TD"/pprof/go-heap-*.pb.gz "$TD"/ext/pprof/go-heap-* "$TD"/ext/pprof/go-memory-guide.pb.gz \
  "$TD"/ext/pprof/go-alloc-objects-parca.pb.gz "$TD"/ext/pprof/pprofutils-heapage-in.pb.gz; do
  [ -f "$f" ] || continue
  unit=$("$PCOL" top "$f" --by label:bytes --format tsv 2>/dev/null | awk -F'\t' 'NR == 2 { print $8 }')
  case $unit in bytes) u=-unit=B ;; nanoseconds) u=-unit=ns ;; count) u= ;; *) continue ;; esac
  pc=$("$PCOL" top "$f" --by label:bytes --format tsv | awk -F'\t' 'NR > 1 { s += $4 } END { printf "%.0f", s }')
  go=$(go tool pprof -symbolize=none -tagroot=bytes $u -top -cum -nodefraction=0 -nodecount=10000000 "$f" 2>/dev/null |
    awk '$NF ~ /^-?[0-9]+$/ && $(NF-1) ~ /%$/ { v = $(NF-2); sub(/[a-zA-Z]+$/, "", v); s += v } END { printf "%.0f", s }')
  checked=$((checked + 1))
  [ -n "$pc" ] && [ "$pc" = "$go" ] ||
    { echo "FAIL: $(basename "$f"): top --by label:bytes rows add up to $pc, pprof -tagroot=bytes frames to $go"; fail=$((fail + 1)); }
done

# pcol tags = pprof -tags (the numbers: pprof aligns with a tabwriter) and
# pcol traces = pprof -traces (the text from the first separator on)
tags_of() { # key<TAB>total, then key<TAB>amount<TAB>value per value
  awk '/: Total / { k = $0; sub(/^ */, "", k); sub(/: Total .*/, "", k); t = $NF; print k "\t" t; next }
       /\): / { a = $1; v = $0; sub(/^[^)]*\): /, "", v); print k "\t" a "\t" v; next }
       /^ +[^ ]+: / { a = $1; sub(/:$/, "", a); v = $0; sub(/^ *[^ ]+: /, "", v); print k "\t" a "\t" v }'
}
# (every profile with labels, string or numeric: go heap's "bytes" too)
for f in "$TD"/pprof/go-cpu-string-labels.pb.gz "$TD"/pprof/dotnet-6types-labels-UNCOMPRESSED.pb \
  "$TD"/pprof/go-heap-*.pb.gz "$TD"/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz "$TD"/ext/pprof/go-*label* \
  "$TD"/ext/pprof/go-heap-* "$TD"/ext/pprof/go-memory-guide.pb.gz "$TD"/ext/pprof/go-alloc-objects-parca.pb.gz \
  "$TD"/ext/pprof/pprofutils-*-in.pb.gz "$TD"/ext/pprof/parca-*.pb.gz "$TD"/ext/pprof/go-req-2.pb.gz \
  "$TD"/ext/pprof/go-goroutine-nethttp.pb.gz "$TD"/ext/pprof/python-pyspy-1.pb.gz; do
  [ -f "$f" ] || continue
  checked=$((checked + 1))
  go tool pprof -symbolize=none -tags "$f" 2>/dev/null | tags_of | sort >"$tmp/go.tags"
  "$PCOL" tags "$f" | tags_of | sort >"$tmp/pc.tags"
  if ! cmp -s "$tmp/go.tags" "$tmp/pc.tags"; then
    echo "FAIL: $(basename "$f"): pcol tags differs from go tool pprof -tags (< pprof, > pcol):"
    diff "$tmp/go.tags" "$tmp/pc.tags" | head -10
    fail=$((fail + 1))
  fi
done
# traces: every pprof profile, byte for byte from the first separator on
# (pprof's samples as it merged them on reading: same stack and labels
# added up, all-zero ones dropped; unsymbolized frames "[mapping]" or
# "<unknown>"; names with control bytes or invalid UTF-8 are escaped by
# pcol's text rule, so that file is left out)
for f in "$TD"/pprof/*.pb.gz "$TD"/pprof/*.pb "$TD"/ext/pprof/*; do
  [ -f "$f" ] || continue
  case $f in *dotnet*) continue ;; esac # pprof leaves out one sample of it, pcol does not
  case $f in *edge-invalid-utf8*) continue ;; esac # control bytes: pcol escapes them (doc/safety.md)
  "$PCOL" info "$f" 2>/dev/null | grep -q 'input_format: *otlp' && continue # OTLP, not a Profile
  for args in "" "-tagfocus=. -focus=." ; do
    pa=$(echo "$args" | sed 's/-tagfocus=/--tag=/; s/-focus=/--focus=/')
    checked=$((checked + 1))
    go tool pprof -symbolize=none -traces $args "$f" 2>/dev/null | sed -n '/^-----------+/,$p' >"$tmp/go.tr"
    "$PCOL" traces "$f" $pa 2>/dev/null | sed -n '/^-----------+/,$p' >"$tmp/pc.tr"
    if ! cmp -s "$tmp/go.tr" "$tmp/pc.tr"; then
      echo "FAIL: $(basename "$f"): pcol traces $pa differs from go tool pprof -traces $args (< pprof, > pcol):"
      diff -a "$tmp/go.tr" "$tmp/pc.tr" | head -10
      fail=$((fail + 1))
    fi
  done
done

echo "pprof views: $checked comparisons on $n profiles, $fail failed"
[ $fail = 0 ]
