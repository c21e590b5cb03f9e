#!/usr/bin/env bash
# --diff-base and --base of profiles whose sources measure different values
# (review 18 F6): a JFR recording's execution samples (samples, cpu) and
# allocation samples (samples, allocation_weight) are one profile of
# samples, cpu and allocation_weight, THE union its pprof export writes
# (pcol_vunion_make), and two such profiles pair by position as go tool
# pprof pairs the exports.  `pcol top A --diff-base B` equals `go tool
# pprof -top -diff_base=B.pb.gz A.pb.gz` of pcol's exports, line for line
# after the File: line, at each value, for two recordings, one against
# itself and with --base; a profile of other values is refused where go
# refuses the exports, naming the sources by number and what to do.  The
# recordings are tests/support/gen_jfr.py's (no JVM); the go comparisons
# are skipped without go.
set -u
T=t_diff_base_union
. "$(dirname "$0")/cli_env.sh"
GEN="python3 tests/support/gen_jfr.py"

$GEN "$tmp/a.jfr" --chunks 2 --samples 30 --period '*:10 ms' >/dev/null || fail "gen_jfr.py a"
$GEN "$tmp/b.jfr" --chunks 3 --samples 50 --period '*:20 ms' >/dev/null || fail "gen_jfr.py b"
$GEN "$tmp/e.jfr" --chunks 2 --samples 30 --exec-only --period '*:10 ms' >/dev/null || fail "gen_jfr.py --exec-only"
for f in a b e; do
  "$PCOL" unpack "$tmp/$f.jfr" --to pprof -o "$tmp/$f.pb.gz" 2>/dev/null || fail "unpack $f.jfr --to pprof"
done
"$PCOL" info "$tmp/a.jfr" | grep -q 'values: *samples/count, allocation_weight/bytes' ||
  fail "a.jfr has no allocation source (the case under test)"

# every pair is accepted; a profile minus itself is nothing
for p in "a b" "b a" "a a"; do
  set -- $p
  for v in "" cpu samples allocation_weight; do
    for o in diff-base base; do
      "$PCOL" top "$tmp/$1.jfr" --$o "$tmp/$2.jfr" ${v:+--value $v} --node-fraction 0 \
        >"$tmp/pc.txt" 2>"$tmp/pc.err" || fail "top $1.jfr --$o $2.jfr ${v:+--value $v}: $(head -c 600 "$tmp/pc.err")"
      if [ "$1" = "$2" ]; then
        grep -q '^Showing nodes accounting for 0, 0% of ' "$tmp/pc.txt" ||
          fail "top $1.jfr --$o itself ${v:+--value $v}: not 0: $(sed -n 5p "$tmp/pc.txt")"
      fi
      command -v go >/dev/null || continue
      go tool pprof -top -nodefraction=0 ${v:+-sample_index=$v} -${o/-/_}="$tmp/$2.pb.gz" "$tmp/$1.pb.gz" \
        >"$tmp/go.txt" 2>"$tmp/go.err" || fail "go tool pprof -${o/-/_} $2 $1: $(head -3 "$tmp/go.err")"
      tail -n +2 "$tmp/pc.txt" >"$tmp/pc.rows"
      # (the copies' comments of truncated stacks, pcol's export's mark of
      # the recordings' meta pcol.truncated_stacks, which pcol top of the
      # recordings says as a warning, not a comment: doc/mappings.md §16)
      tail -n +2 "$tmp/go.txt" | grep -v '^pcol\.truncated_stacks: ' >"$tmp/go.rows"
      cmp -s "$tmp/pc.rows" "$tmp/go.rows" ||
        fail "top $1.jfr --$o $2.jfr ${v:+--value $v} is not go's: $(diff "$tmp/pc.rows" "$tmp/go.rows" | head -8)"
    done
  done
done

# execution samples alone list 2 types, the recording 3: refused as go
# refuses the exports, each source named by number, and what to do
for p in "e a 2 3" "a e 3 2"; do
  set -- $p
  "$PCOL" top "$tmp/$1.jfr" --diff-base "$tmp/$2.jfr" >/dev/null 2>"$tmp/pc.err" && fail "top $1 --diff-base $2: accepted"
  grep -q "inconsistent samples type count: $3 != $4" "$tmp/pc.err" || fail "top $1 --diff-base $2: $(cat "$tmp/pc.err")"
  grep -q 'source 2: allocation_weight/bytes' "$tmp/pc.err" || fail "top $1 --diff-base $2: no source named: $(cat "$tmp/pc.err")"
  grep -q 'pcol unpack FILE --source N --to pprof.*pcol diff BASE PROFILE' "$tmp/pc.err" ||
    fail "top $1 --diff-base $2: nothing to do: $(cat "$tmp/pc.err")"
  if command -v go >/dev/null; then
    go tool pprof -top -diff_base="$tmp/$2.pb.gz" "$tmp/$1.pb.gz" >/dev/null 2>"$tmp/go.err" && fail "go accepted $1 - $2"
    grep -q "inconsistent samples type count" "$tmp/go.err" || fail "go: $(cat "$tmp/go.err")"
  fi
done
# the OpenTelemetry eBPF profiler's file: 77 off_cpu sources, 5 of
# samples/count (one list: off_cpu, samples), against itself
o=$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin
if [ -f "$o" ]; then
  "$PCOL" top "$o" --diff-base "$o" --value off_cpu -n 5 >"$tmp/pc.txt" 2>"$tmp/pc.err" ||
    fail "top (OTLP file) --diff-base itself: $(head -c 600 "$tmp/pc.err")"
  grep -q '^Showing nodes accounting for 0, 0% of 267.30s total' "$tmp/pc.txt" ||
    fail "top (OTLP file) --diff-base itself: $(cat "$tmp/pc.txt")"
  if command -v go >/dev/null; then
    "$PCOL" unpack "$o" --to pprof -o "$tmp/o.pb.gz" 2>/dev/null || fail "unpack (OTLP file) --to pprof"
    go tool pprof -top -nodecount=5 -symbolize=none -sample_index=off_cpu -diff_base="$tmp/o.pb.gz" "$tmp/o.pb.gz" \
      2>/dev/null | sed -n '/^Type:/,$p' >"$tmp/go.rows"
    sed -n '/^Type:/,$p' "$tmp/pc.txt" >"$tmp/pc.rows"
    cmp -s "$tmp/pc.rows" "$tmp/go.rows" ||
      fail "top (OTLP file) --diff-base itself is not go's: $(diff "$tmp/pc.rows" "$tmp/go.rows" | head -8)"
  fi
fi

# the execution samples alone, as the message says, pair with them
"$PCOL" unpack "$tmp/a.jfr" --source 1 --to pprof -o "$tmp/a1.pb.gz" 2>/dev/null || fail "unpack --source 1"
"$PCOL" top "$tmp/e.jfr" --diff-base "$tmp/a1.pb.gz" -n 1 >/dev/null || fail "top e.jfr --diff-base (a.jfr's source 1)"

# the pprof export of such a union warns of each source without one of its
# sample types by the side's own number, as the views do (pcol_source_who):
# the base's sources come after the profile's in the union, whose numbers
# are no input's (before: "source 3" of a base that has two)
printf 'main;a 3\nmain;b 2\n' >"$tmp/c.folded"
printf '%s' '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},{"id":2,"callFrame":{"functionName":"f","url":"a.js"}}],"startTime":0,"endTime":5000,"samples":[2,2,2],"timeDeltas":[0,1000,1000]}' >"$tmp/x.cpuprofile"
"$PCOL" merge "$tmp/x.cpuprofile" "$tmp/c.folded" -o "$tmp/m.pcol" 2>/dev/null || fail "merge m.pcol"
"$PCOL" merge "$tmp/c.folded" "$tmp/x.cpuprofile" -o "$tmp/mb.pcol" 2>/dev/null || fail "merge mb.pcol"
for o in --base --diff-base; do
  "$PCOL" top "$tmp/m.pcol" $o "$tmp/mb.pcol" --value wall >/dev/null 2>"$tmp/view" || fail "top $o: $(cat "$tmp/view")"
  "$PCOL" unpack "$tmp/m.pcol" $o "$tmp/mb.pcol" --to pprof -o "$tmp/mu.pb.gz" 2>"$tmp/exp" || fail "unpack $o: $(cat "$tmp/exp")"
  for who in "source 2" "the base's source 1"; do
    grep -q ": $who (collapsed [^)]*) has no value wall/nanoseconds" "$tmp/view" || fail "top $o: no '$who': $(cat "$tmp/view")"
    grep -q ": $who (collapsed [^)]*) has no value wall/nanoseconds" "$tmp/exp" ||
      fail "unpack $o --to pprof: no '$who' (as top names it): $(cat "$tmp/exp")"
  done
  ! grep -q "source 3" "$tmp/exp" || fail "unpack $o --to pprof names the union's source 3: $(cat "$tmp/exp")"
done
exit 0
