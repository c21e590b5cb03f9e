#!/usr/bin/env bash
# The profile's comment lines at the head of pprof's text views, against
# go tool pprof itself (report.go ProfileLabels: after File: and Build ID:,
# every comment but those beginning with '#', each once as profile.Merge
# keeps it, before Type:).  For every pprof profile of the test data and a
# made one (repeated, '#', empty and non-ASCII comments): -top, -traces,
# -tree, -peek=. and -dot's legend, pcol's lines between its File: and
# Type: lines against go's before Type: (less its File:/Build ID: lines);
# `pcol info`'s comment lines (each as stored), less repeats, against
# -comments.
# Of several inputs, go's merge of their comments (each once, in order),
# Time: and Duration: (the earliest start, the durations added), against
# go's own merge of two or three profiles; `--source N` that source's; of
# a wall-clock range, those of go's merge of the profiles it reaches; and
# of a time range, go's header of the range's pprof export is pcol top's,
# of the part of the profiles' windows the range covers.  (Control bytes
# are escaped by pcol: tests/cli/t_text_escape.sh.)
# go's Type: of pcol's pprof export of a JFR recording and of merges is
# pcol top's of the input (the export's default_sample_type).
set -u
PCOL=${PCOL:-build/bin/pcol}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
command -v go >/dev/null || { echo "t_pprof_header: go not installed: skipped"; exit 77; }
data=$(cd "$REPO/../shared/testdata" 2>/dev/null && pwd) || { echo "t_pprof_header: no test data: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC HOME=$tmp PPROF_BINARY_PATH=/nonexistent
fail=0 n=0 with=0
bad() { echo "t_pprof_header: FAIL: $*"; fail=$((fail + 1)); }

python3 "$REPO/tests/support/pprofgen.py" comments "$tmp/c.pb" 'async-profiler' '#hidden' \
  'second, caf\xc3\xa9' 'async-profiler' '' 'third' || { echo "t_pprof_header: FAIL: pprofgen.py"; exit 1; }
python3 "$REPO/tests/support/pprofgen.py" comments "$tmp/d.pb" 'other' 'third' || exit 1

# go's comment lines: before Type:, less File:/Build ID:; the dot legend's
# label split at \l.  pcol's: between its first line (File:) and Type:.
go_lines() { awk '/^Type: /{exit} /^(File|Build ID): /{next} {print}'; }
pc_lines() { awk 'NR == 1 {next} /^Type: /{exit} {print}'; }
dot_label() { sed -n 's/.*cluster_L { "[^"]*" \[shape=box fontsize=16 label="\([^"]*\)".*/\1/p' | sed 's/\\l/\n/g'; }

inputs=("$tmp/c.pb")
for f in "$data"/pprof/*.pb* "$data"/ext/pprof/*; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid-utf8-nul-strings*) continue ;; esac # raw control bytes: escaped by pcol
  "$PCOL" info "$f" 2>/dev/null | grep -q 'input_format: *pprof' || continue
  inputs+=("$f")
done
for f in "${inputs[@]}"; do
  b=$(basename "$f")
  # (make test's time: a profile without comments, go's -comments empty,
  # is held to none in pcol's top; the views for those with some)
  go tool pprof -comments "$f" >"$tmp/gc" 2>/dev/null || { bad "$b: go -comments failed"; continue; }
  if [ ! -s "$tmp/gc" ]; then
    "$PCOL" top "$f" 2>"$tmp/err" | pc_lines >"$tmp/p"
    n=$((n + 1))
    [ ! -s "$tmp/p" ] || bad "$b: comment lines where go has no comment: $(head -3 "$tmp/p")"
    continue
  fi
  # info's comment lines (every row as stored), each once, are -comments'
  "$PCOL" info "$f" | sed -n 's/^  comment:       //p' | awk '!seen[$0]++' >"$tmp/p"
  n=$((n + 1))
  cmp -s "$tmp/gc" "$tmp/p" || { bad "$b: info's comments are not go's -comments"; diff "$tmp/gc" "$tmp/p" | head -6; }
  # (the text's lines only: info's tables stay JSON/TSV rows)
  "$PCOL" info "$f" --format json | python3 -c 'import json, sys; json.load(sys.stdin)' ||
    bad "$b: info --format json is not JSON"
  n=$((n + 1))
  for v in top traces tree peek dot; do
    case $v in
    peek) g=(-peek=.) p=(peek "$f" .) ;;
    dot) g=(-dot) p=(graph "$f") ;;
    *) g=("-$v") p=("$v" "$f") ;;
    esac
    go tool pprof -symbolize=none "${g[@]}" "$f" >"$tmp/go" 2>/dev/null || { bad "$b $v: go failed"; continue; }
    "$PCOL" "${p[@]}" >"$tmp/pc" 2>"$tmp/err" || { bad "$b $v: pcol failed: $(head -2 "$tmp/err")"; continue; }
    if [ $v = dot ]; then
      dot_label <"$tmp/go" | go_lines >"$tmp/g"
      dot_label <"$tmp/pc" | pc_lines >"$tmp/p"
    else
      go_lines <"$tmp/go" >"$tmp/g"
      pc_lines <"$tmp/pc" >"$tmp/p"
    fi
    n=$((n + 1))
    [ -s "$tmp/g" ] && with=$((with + 1))
    cmp -s "$tmp/g" "$tmp/p" || { bad "$b $v: comment lines differ (go < > pcol)"; diff "$tmp/g" "$tmp/p" | head -6; }
  done
done
# the made file's lines as the fixture gives them (go's rule, not only go's word)
printf '%s\n' 'async-profiler' 'second, café' '' 'third' >"$tmp/want"
"$PCOL" top "$tmp/c.pb" | pc_lines >"$tmp/p"
cmp -s "$tmp/want" "$tmp/p" || bad "c.pb: not the comments less '#' and the repeat: $(cat "$tmp/p")"
# two inputs: the union of the merged profiles' comments, each once, as go
go tool pprof -top "$tmp/c.pb" "$tmp/d.pb" 2>/dev/null | go_lines >"$tmp/g"
"$PCOL" top "$tmp/c.pb" "$tmp/d.pb" | pc_lines >"$tmp/p"
[ -s "$tmp/g" ] && cmp -s "$tmp/g" "$tmp/p" || bad "two inputs: $(cat "$tmp/p") against go's $(cat "$tmp/g")"
# ... and read one by one (pcol_top_many: each file's comments, in input order)
"$PCOL" pack "$tmp/c.pb" -o "$tmp/c.pcol" && "$PCOL" pack "$tmp/d.pb" -o "$tmp/d.pcol" || bad "pack c, d"
PCOL_DEBUG=inputs "$PCOL" top "$tmp/c.pcol" "$tmp/d.pcol" 2>"$tmp/err" | pc_lines >"$tmp/p"
cmp -s "$tmp/g" "$tmp/p" || bad "two pcol files: $(cat "$tmp/p") against go's $(cat "$tmp/g")"
grep -q 'each on its own' "$tmp/err" || bad "two pcol files with comments were not read one by one"
n=$((n + 2))
# the Time: and Duration: lines of several profiles: go's merge of them
# (merge.go combineHeaders: the first nonzero start replaced by an earlier
# one, the durations added) for each pair of the inputs go merges (the same
# sample types), and three: pcol's union of the profiles, and of their pcol
# files read one by one (pcol_top_many)
tl() { grep -aE '^(Time|Duration):'; }
tl2() { grep -aE '^(Type|Time|Duration):' | sed 's/^\(Type: [^ ]*\) (.*/\1/'; }
pairs=0
for ((i = 1; i + 1 < ${#inputs[@]}; i++)); do
  set -- "${inputs[i]}" "${inputs[i + 1]}"
  [ $((i % 4)) = 1 ] && [ $((i + 2)) -lt ${#inputs[@]} ] && set -- "$@" "${inputs[i + 2]}"
  go tool pprof -symbolize=none -top "$@" >"$tmp/go" 2>/dev/null || continue # not mergeable
  # profiles go merges have one list of value types: their default is the
  # first one stated, as go's merge takes it (the value rule, doc/cli.md;
  # review 17 F6: pcol added up samples where the defaults differed), so
  # the Type: (its name: pcol adds the unit) and the Duration: line's total
  # are go's
  "$PCOL" top "$@" 2>"$tmp/err" | tl2 >"$tmp/p"
  tl2 <"$tmp/go" >"$tmp/g"
  k=0 ps=()
  for x in "$@"; do k=$((k + 1)) && "$PCOL" pack "$x" -o "$tmp/in$k.pcol" && ps+=("$tmp/in$k.pcol"); done
  "$PCOL" top "${ps[@]}" 2>/dev/null | tl2 >"$tmp/p2"
  n=$((n + 2)) pairs=$((pairs + 1))
  cmp -s "$tmp/g" "$tmp/p" || { bad "$(basename "$1") +$(($# - 1)): Type/Time/Duration (go < > pcol)"; diff "$tmp/g" "$tmp/p" | head -6; }
  cmp -s "$tmp/g" "$tmp/p2" || { bad "$(basename "$1") +$(($# - 1)), pcol files: Type/Time/Duration (go < > pcol)"; diff "$tmp/g" "$tmp/p2" | head -6; }
done
[ "$pairs" -ge 5 ] || bad "only $pairs sets of profiles go merges"
# pcol diff BASE NEW of two heap profiles whose defaults differ (one names
# alloc_space, one none): the value go's -diff_base shows (its merge of
# the profile and the base: the first named), either way round (review 17
# F6: pcol diff refused them as of incompatible value types)
hp=$data/ext/pprof/go-heap-phlaredb.pb.gz hm=$data/ext/pprof/go-memory-guide.pb.gz
if [ -f "$hp" ] && [ -f "$hm" ]; then
  for order in "$hp $hm" "$hm $hp"; do
    set -- $order
    want=$(go tool pprof -top -diff_base "$1" "$2" 2>/dev/null | sed -n 's/^Type: //p')
    got=$("$PCOL" diff "$1" "$2" -n 1 2>"$tmp/err" | sed -n 's/^Type: \([^ ,]*\).*/\1/p')
    n=$((n + 1))
    [ -n "$want" ] && [ "$got" = "$want" ] ||
      bad "diff $(basename "$1") $(basename "$2"): Type '$got', go -diff_base's '$want' ($(head -c 300 "$tmp/err"))"
  done
fi
# --source N: that source's, as go of that file alone
go tool pprof -top "$tmp/d.pb" 2>/dev/null | go_lines >"$tmp/g"
"$PCOL" top "$tmp/c.pb" "$tmp/d.pb" --source 2 | pc_lines >"$tmp/p"
[ -s "$tmp/g" ] && cmp -s "$tmp/g" "$tmp/p" || bad "--source 2: $(cat "$tmp/p") against go's $(cat "$tmp/g")"
n=$((n + 3))
# a wall-clock range that reaches some of the sources: the comments, as
# Time: and Duration:, are those of go's merge of the reached profiles
# alone, however the inputs are given (the merged file, their union, their
# pcol files read one by one) and in each view; c.pb starts in 1970, e.pb
# and f.pb in 2023, 10 s apart (2 s each, no sample times: a profile is
# reached whole or not at all), "shared" is c's and e's, "later" e's and f's
python3 "$REPO/tests/support/pprofgen.py" comments-at "$tmp/e.pb" 1700000000000000000 'later' 'shared' '#h2' || exit 1
python3 "$REPO/tests/support/pprofgen.py" comments-at "$tmp/f.pb" 1700000010000000000 'latest' 'later' || exit 1
hl() { grep -aE '^(Time|Duration|Showing nodes accounting for) '; }
for x in e f; do "$PCOL" pack "$tmp/$x.pb" -o "$tmp/$x.pcol" || bad "pack $x"; done
"$PCOL" merge "$tmp/c.pb" "$tmp/e.pb" "$tmp/f.pb" -o "$tmp/m.pcol" || bad "merge c e f"
for reach in ef e all; do
  case $reach in
  ef) rng=(--from 2023-11-14T22:00:00Z --to 2023-11-15T00:00:00Z) gi=("$tmp/e.pb" "$tmp/f.pb") ;;
  e) rng=(--from @1699999999 --to @1700000005) gi=("$tmp/e.pb") ;;
  all) rng=(--from @0 --to 2023-11-15T00:00:00Z) gi=("$tmp/c.pb" "$tmp/e.pb" "$tmp/f.pb") ;;
  esac
  go tool pprof -symbolize=none -top "${gi[@]}" >"$tmp/go" 2>/dev/null || { bad "$reach: go failed"; continue; }
  go_lines <"$tmp/go" >"$tmp/g"
  hl <"$tmp/go" >"$tmp/gt"
  [ -s "$tmp/g" ] && [ -s "$tmp/gt" ] || bad "$reach: go printed no comment or no Time: line"
  for in in "$tmp/m.pcol" "$tmp/c.pb $tmp/e.pb $tmp/f.pb" "$tmp/c.pcol $tmp/e.pcol $tmp/f.pcol"; do
    # shellcheck disable=SC2086
    "$PCOL" top $in "${rng[@]}" >"$tmp/pc" 2>"$tmp/err" || { bad "$reach [$in]: pcol failed: $(head -2 "$tmp/err")"; continue; }
    pc_lines <"$tmp/pc" >"$tmp/p"
    hl <"$tmp/pc" >"$tmp/pt"
    n=$((n + 2))
    cmp -s "$tmp/g" "$tmp/p" || { bad "$reach [$in]: comments (go < > pcol)"; diff "$tmp/g" "$tmp/p" | head -6; }
    cmp -s "$tmp/gt" "$tmp/pt" || { bad "$reach [$in]: Type/Time/Duration (go < > pcol)"; diff "$tmp/gt" "$tmp/pt" | head -6; }
  done
  for v in traces tree peek; do
    p=("$v" "$tmp/m.pcol")
    [ $v = peek ] && p+=(.)
    "$PCOL" "${p[@]}" "${rng[@]}" 2>/dev/null | pc_lines >"$tmp/p"
    n=$((n + 1))
    cmp -s "$tmp/g" "$tmp/p" || { bad "$reach $v: comments (go -top's < > pcol)"; diff "$tmp/g" "$tmp/p" | head -6; }
  done
done
# a time range (spec.md §7 "Recordings"): the pprof export of the range
# (`pcol unpack --to pprof --from/--to`), read by go: its Time: and
# Duration: lines are pcol top's of the range, and its duration is the part
# of the profiles' windows the range covers (speedscope profiles that state
# their window and are sampled all through it, tests/support/window_gen.py:
# one.json [T0, T0+4 s), later.json [T0+100 s, T0+102 s), rec.json one
# recording of [T0, T0+2 s) and [T0+1 s, T0+4 s)), so go's share is the
# range's, not of the whole recording
T0=1767225658
python3 "$REPO/tests/support/window_gen.py" "$tmp" "$T0" || { echo "t_pprof_header: FAIL: window_gen.py"; exit 1; }
wt() { # wt MS: T0 + MS milliseconds in wall-clock time (RFC 3339)
  local t=$((T0 * 1000 + $1))
  echo "$(date -u -d "@$((t / 1000))" +%Y-%m-%dT%H:%M:%S).$(printf %03d $((t % 1000)))Z"
}
ranged() { # ranged "LABEL" "GO'S DURATION LINE" INPUT... OPTION...: the export's header
  local label=$1 want=$2
  shift 2
  "$PCOL" unpack "$@" --to pprof -o "$tmp/r.pb.gz" 2>"$tmp/err" || { bad "$label: unpack: $(head -2 "$tmp/err")"; return; }
  go tool pprof -symbolize=none -top "$tmp/r.pb.gz" 2>/dev/null | tl >"$tmp/g"
  "$PCOL" top "$@" 2>/dev/null | tl >"$tmp/p"
  n=$((n + 2))
  grep -qxF "$want" "$tmp/g" || bad "$label: go's Duration: of the export is not '$want': $(cat "$tmp/g")"
  cmp -s "$tmp/g" "$tmp/p" || { bad "$label: Time/Duration of the range (go of the export < > pcol top)"; diff "$tmp/g" "$tmp/p" | head -6; }
}
ranged "inside" "Duration: 1s, Total samples = 1000ms (  100%)" "$tmp/one.json" --from 1 --to 2
ranged "over the start" "Duration: 1s, Total samples = 1000ms (  100%)" "$tmp/one.json" --from "$(wt -5000)" --to "$(wt 1000)"
ranged "over the end" "Duration: 500ms, Total samples = 500ms (  100%)" "$tmp/one.json" --from "$(wt 3500)"
ranged "a recording" "Duration: 1.50s, Total samples = 1000ms (66.67%)" "$tmp/rec.json" --from 0.5 --to 1
ranged "two inputs" "Duration: 2s, Total samples = 2s (  100%)" "$tmp/one.json" "$tmp/later.json" --from 1 --to 2
# a Chrome trace of three V8 profiles on one timeline (tests/support/
# v8_trace_gen.py: [0, 1.5 s), [0.3, 1.1 s), [1, 1.4 s)): the window's part
# on the trace's timeline, each profile's span its own where its samples
# are (review 18 F1: 1.20 s for this 0.2 s window before); and each other
# export of the range (Perfetto, Chrome, V8, OTLP, speedscope, Firefox),
# read back and exported to pprof, says go the same (F8: the Perfetto,
# Chrome and V8 copies kept the time before the range)
python3 "$REPO/tests/support/v8_trace_gen.py" "$tmp/tr.json" || { echo "t_pprof_header: FAIL: v8_trace_gen.py"; exit 1; }
ranged "a trace's profiles" "Duration: 200ms, Total samples = 300ms (150.00%)" "$tmp/tr.json" --from 0.2 --to 0.4
ranged "a trace's later profile" "Duration: 100ms, Total samples = 100ms (  100%)" "$tmp/tr.json" --source 3 --from 1.2 --to 1.3
copy_ranged() { # copy_ranged FORMAT "GO'S DURATION LINE" INPUT... OPTION...
  local fmt=$1 want=$2
  shift 2
  "$PCOL" unpack "$@" --to "$fmt" -o "$tmp/c.$fmt" 2>"$tmp/err" &&
    "$PCOL" unpack "$tmp/c.$fmt" --to pprof -o "$tmp/c.pb.gz" 2>"$tmp/err" || { bad "$fmt copy: unpack: $(head -2 "$tmp/err")"; return; }
  n=$((n + 1))
  go tool pprof -symbolize=none -top "$tmp/c.pb.gz" 2>/dev/null | grep -aE '^Duration:' | grep -qxF "$want" ||
    bad "$fmt copy of $*: go's Duration: is not '$want': $(go tool pprof -symbolize=none -top "$tmp/c.pb.gz" 2>/dev/null | grep -a '^Duration:')"
}
for fmt in perfetto chrome otlp speedscope firefox; do
  copy_ranged $fmt "Duration: 200ms, Total samples = 300ms (150.00%)" "$tmp/tr.json" --from 0.2 --to 0.4
  copy_ranged $fmt "Duration: 1s, Total samples = 1000ms (  100%)" "$tmp/one.json" --from 1 --to 2
done
copy_ranged v8 "Duration: 150ms, Total samples = 150ms (  100%)" "$tmp/tr.json" --source 2 --from 0.9 --to 1.05
copy_ranged v8 "Duration: 1s, Total samples = 1000ms (  100%)" "$tmp/one.json" --from 1 --to 2
# the OTLP copy of a range (`pcol unpack --to otlp --from/--to`), read back
# by pcol and exported to pprof: go's Time: and Duration: of it are pcol
# top's of the range of the input.  overrun.json states [T0+50 s, T0+51 s)
# and is sampled to T0+53 s: from 1.5 to 2.5 s its window is missed but
# rows of it are selected, which the copy writes with the header's start
# (before: time_unix_nano 0, which the import made its earliest sample,
# 12:01am for top's 12:02am); and the eBPF profiler's OTLP message
otlp_ranged() { # otlp_ranged "LABEL" INPUT... OPTION...
  local label=$1
  shift
  "$PCOL" unpack "$@" --to otlp -o "$tmp/r.otlp" 2>"$tmp/err" &&
    "$PCOL" unpack "$tmp/r.otlp" --to pprof -o "$tmp/r.pb.gz" 2>"$tmp/err" || { bad "$label: unpack: $(head -2 "$tmp/err")"; return; }
  go tool pprof -symbolize=none -top "$tmp/r.pb.gz" 2>/dev/null | tl >"$tmp/g"
  "$PCOL" top "$@" 2>/dev/null | tl >"$tmp/p"
  n=$((n + 1))
  [ -s "$tmp/p" ] && cmp -s "$tmp/g" "$tmp/p" || { bad "$label: Time/Duration of the range (go of the OTLP copy < > pcol top)"; diff "$tmp/g" "$tmp/p" | head -6; }
}
otlp_ranged "OTLP, rows past a missed window, last" "$tmp/later.json" "$tmp/overrun.json" --from 1.5 --to 2.5
otlp_ranged "OTLP, rows past a missed window, first" "$tmp/overrun.json" "$tmp/later.json" --from 1.5 --to 2.5
otlp_ranged "OTLP, two inputs" "$tmp/one.json" "$tmp/later.json" --from 1 --to 2
if [ -f "$data/ext/pprof/ODD-otlp-ebpf-profile.pb.bin" ]; then
  otlp_ranged "OTLP, eBPF, a second" "$data/ext/pprof/ODD-otlp-ebpf-profile.pb.bin" --from 1 --to 2
  otlp_ranged "OTLP, eBPF, the end" "$data/ext/pprof/ODD-otlp-ebpf-profile.pb.bin" --from 4.5
fi
# the export's default_sample_type: go tool pprof's Type: of `pcol unpack
# --to pprof` is pcol top's of the input (THE default rule,
# pcol_selection_default_type; go takes the first sample type of that name,
# profile.SampleIndexByName): a JFR recording (its sources state cpu), two
# recordings merged (the default they state together), a Go CPU and a Go
# heap profile merged (the count: their own defaults differ, none stated)
python3 "$REPO/tests/support/gen_jfr.py" "$tmp/r1.jfr" --chunks 2 --samples 30 --period '*:10 ms' >/dev/null &&
  python3 "$REPO/tests/support/gen_jfr.py" "$tmp/r2.jfr" --chunks 1 --samples 20 --period '*:20 ms' >/dev/null ||
  bad "gen_jfr.py"
"$PCOL" merge "$tmp/r1.jfr" "$tmp/r2.jfr" -o "$tmp/rr.pcol" 2>/dev/null || bad "merge of two recordings"
"$PCOL" merge "$data/pprof/go-cpu-inline-small.pb.gz" "$data/pprof/go-heap-allocs-inline.pb.gz" \
  -o "$tmp/cpuheap.pcol" 2>/dev/null || bad "merge of a cpu and a heap profile"
# And the numbers under that Type: go's total and rows of the export are
# pcol top's of the input: where the default is the count, a source without
# samples/count (the heap profile; the eBPF profiler's off-CPU Profiles)
# counts its rows by their weight in the export's samples/count column as
# in the views (THE count rule), not 0 (review 9 F1: 50 samples for 5,697)
for f in "$tmp/r1.jfr" "$tmp/rr.pcol" "$tmp/cpuheap.pcol" "$data/ext/pprof/ODD-otlp-ebpf-profile.pb.bin"; do
  [ -f "$f" ] || continue
  want=$("$PCOL" top "$f" -n 1 2>/dev/null | sed -n 's/^Type: \([^ ]*\).*/\1/p')
  "$PCOL" unpack "$f" --to pprof -o "$tmp/dflt.pb.gz" 2>/dev/null || { bad "$(basename "$f"): unpack --to pprof"; continue; }
  got=$(go tool pprof -top "$tmp/dflt.pb.gz" 2>/dev/null | sed -n 's/^Type: //p')
  n=$((n + 1))
  [ -n "$want" ] && [ "$got" = "$want" ] || bad "$(basename "$f") -> pprof: go's Type: '$got', pcol top's '$want'"
  "$PCOL" top "$f" -n 12 2>/dev/null | sed -n -e 's/^\(Duration: .*\)/\1/p' -e '/^Showing nodes/,$p' > "$tmp/dflt.pcol.txt"
  go tool pprof -top -nodecount=12 "$tmp/dflt.pb.gz" 2>/dev/null |
    sed -n -e 's/^\(Duration: .*\)/\1/p' -e '/^Showing nodes/,$p' > "$tmp/dflt.go.txt"
  n=$((n + 1))
  [ -s "$tmp/dflt.go.txt" ] && cmp -s "$tmp/dflt.pcol.txt" "$tmp/dflt.go.txt" ||
    bad "$(basename "$f") -> pprof: go's total and rows are not pcol top's: $(diff "$tmp/dflt.pcol.txt" "$tmp/dflt.go.txt" | head -4 | tr '\n' ' ')"
done
# the test data must hold a profile with comments (java-cpu-async-profiler)
[ "$with" -ge 10 ] || bad "only $with views with comment lines (want the made file's and async-profiler's)"
echo "t_pprof_header: $n comparisons ($with views with comments, $pairs sets of profiles merged), $fail failed"
[ "$fail" = 0 ]
