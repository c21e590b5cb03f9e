#!/usr/bin/env bash
# CLI: the default value survives a round trip through the Firefox and
# speedscope exports (user review: a JFR recording exported to Firefox and
# read back answered in allocated bytes, not CPU time, with no note).
#  - each profile below -> `pcol unpack --to firefox` / `--to speedscope` ->
#    `pcol top`: the same Type: line and total as `pcol top` of the
#    profile itself (and per source, for speedscope, which keeps them):
#    a JFR recording whose default is the cpu its sources state
#    (pcol.default_value; tests/support/gen_jfr.py --period, no JDK), one
#    whose sources' defaults differ and state none (the count), and a
#    merge of two unrelated profiles (the count: its Firefox copy's rows
#    weighed by time say their count in pcolCount, doc/mappings.md §8.2);
#  - a Firefox file pcol did not write (no meta.pcolDefaultValue): its
#    default is its first thread's value, the thread the Firefox Profiler
#    opens on (doc/mappings.md §8.1): cpu, allocation_weight with the
#    threads in the other order, the count when that thread weighs by
#    samples beside threads in bytes;
#  - a hostile pcolDefaultValue (not a string, a name of no type, control
#    bytes) is ignored, never shown raw;
#  - the Firefox copy's Time: and Duration: lines are the original's (THE
#    rule, pcol_sources_time: the recording's span, not its samples' range;
#    the merge's, go's sum, though its samples lie years apart), also after
#    a second trip, and its duration to the ns (meta.profilingStartTime/
#    profilingEndTime, pcolDurationNanos); hostile ones (not numbers,
#    reversed, past 2^63 ns, a pcolDurationNanos not a whole number > 0)
#    are ignored or refused, naming them;
#  - the pprof export's default_sample_type is what pcol top shows (THE
#    default rule; the merge's count, not its first source's alloc_space),
#    read back by pcol (go's Type:: tests/interop/t_pprof_header.sh).
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_default_trip: FAIL: $*" >&2; exit 1; }
GEN="python3 tests/support/gen_jfr.py"
$GEN "$tmp/cpu.jfr" --chunks 2 --samples 30 --period '*:10 ms' >/dev/null || fail "gen_jfr.py --period"
$GEN "$tmp/count.jfr" --chunks 2 --samples 30 >/dev/null || fail "gen_jfr.py"
ins=("$tmp/cpu.jfr" "$tmp/count.jfr")
if [ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ] && [ -f "$TD/pprof/go-heap-allocs-inline.pb.gz" ]; then
  "$PCOL" merge "$TD/pprof/go-cpu-inline-small.pb.gz" "$TD/pprof/go-heap-allocs-inline.pb.gz" \
    -o "$tmp/merged.pcol" 2>/dev/null || fail "merge"
  ins+=("$tmp/merged.pcol")
fi
# answer FILE [ARGS]: pcol top's Type: line and total (not Duration:, which
# the Firefox Profiler's range of the samples makes)
answer() {
  "$PCOL" top "$@" -n 1 2>/dev/null | sed -n -e 's/^\(Type: .*\)/\1/p' -e 's/^Showing nodes .* of \(.*\) total$/total \1/p' |
    tr '\n' ' '
}
# the cases the fix is about: the default each answers with
want_type() { answer "$1" | sed -n 's/^Type: \([^ ]*\).*/\1/p'; }
[ "$(want_type "$tmp/cpu.jfr")" = cpu ] || fail "cpu.jfr's default is not cpu: $(answer "$tmp/cpu.jfr")"
[ "$(want_type "$tmp/count.jfr")" = samples ] || fail "count.jfr's default is not samples: $(answer "$tmp/count.jfr")"
for f in "${ins[@]}"; do
  n=$(basename "$f")
  want=$(answer "$f")
  [ -n "$want" ] || fail "$n: pcol top printed no Type: line"
  for to in firefox speedscope; do
    "$PCOL" unpack "$f" --to $to -o "$tmp/$n.$to.json" || fail "$n: unpack --to $to"
    got=$(answer "$tmp/$n.$to.json")
    [ "$got" = "$want" ] || fail "$n -> $to -> pcol top: '$got', want '$want'"
  done
  # speedscope keeps the sources: each one's own default comes back too
  ns=$("$PCOL" cat "$f" --table sources --format tsv | tail -n +2 | wc -l)
  for s in $(seq 1 "$ns"); do
    want=$(answer "$f" --source "$s")
    got=$(answer "$tmp/$n.speedscope.json" --source "$s")
    [ "$got" = "$want" ] || fail "$n -> speedscope, source $s: '$got', want '$want'"
  done
done

# the recording's time and duration survive the Firefox export (THE rule,
# pcol_sources_time: meta.profilingStartTime/profilingEndTime), not the
# range of its samples: `pcol top`'s Time: and Duration: lines (JFR's
# recording is longer than its samples' range; the merge's is go's sum)
span() { "$PCOL" top "$@" -n 1 2>/dev/null | sed -n -e 's/^\(Time: .*\)/\1/p' -e 's/^\(Duration: [^,]*\),.*/\1/p' | tr '\n' ' '; }
for f in "${ins[@]}"; do
  n=$(basename "$f")
  want=$(span "$f")
  case "$want" in *Duration:*) ;; *) fail "$n: pcol top printed no Duration: line" ;; esac
  got=$(span "$tmp/$n.firefox.json")
  [ "$got" = "$want" ] || fail "$n -> firefox -> pcol top: '$got', want '$want'"
  # and again after a second trip (the range the import keeps)
  "$PCOL" unpack "$tmp/$n.firefox.json" --to firefox -o "$tmp/$n.ff2.json" || fail "$n: firefox -> firefox"
  [ "$(span "$tmp/$n.ff2.json")" = "$want" ] || fail "$n -> firefox -> firefox: '$(span "$tmp/$n.ff2.json")', want '$want'"
done
# to the ns: the recording's stated span (each JFR source's), not its
# samples' range
dns() { "$PCOL" info "$1" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["duration_ns"])'; }
for n in cpu.jfr count.jfr; do
  [ "$(dns "$tmp/$n.firefox.json")" = "$(dns "$tmp/$n")" ] ||
    fail "$n -> firefox: duration $(dns "$tmp/$n.firefox.json") ns, the recording's $(dns "$tmp/$n") ns"
done

# hostile spans: the range's fields not numbers, reversed, past 2^63 ns;
# pcolDurationNanos not a whole number more than 0 (ignored: the range's
# length, the recording's here); never an overflow or a failure
python3 - "$tmp/cpu.jfr.firefox.json" "$tmp" <<'PY' || fail "making the hostile spans"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["meta"]
assert m.get("profilingEndTime", 0) > 0 and "pcolDurationNanos" not in m, m
cases = {"rstr": {"profilingEndTime": "20"}, "rrev": {"profilingStartTime": 30, "profilingEndTime": 10},
         "rhuge": {"profilingStartTime": -1e300, "profilingEndTime": 1e300},
         "rbig": {"profilingEndTime": 1e13}, "rnull": {"profilingStartTime": None},
         "dneg": {"pcolDurationNanos": -5}, "dreal": {"pcolDurationNanos": 1.5e30},
         "dstr": {"pcolDurationNanos": "7"}, "dwide": {"pcolDurationNanos": 123456789012345678901234567890}}
for name, c in cases.items():
    e = json.loads(json.dumps(d))
    e["meta"].update(c)
    open(sys.argv[2] + "/" + name + ".json", "w").write(json.dumps(e))
PY
for h in rstr rrev rhuge rbig rnull dneg dreal dstr dwide; do
  if [ $h = dwide ]; then # (past 64 bits: the JSON reader refuses it, naming it)
    "$PCOL" top "$tmp/$h.json" >"$tmp/out" 2>&1 && fail "pcolDurationNanos past 2^64 read"
    grep -q "too big integer" "$tmp/out" || fail "pcolDurationNanos past 2^64: $(head -3 "$tmp/out")"
    continue
  fi
  "$PCOL" top "$tmp/$h.json" >"$tmp/out" 2>&1 || fail "hostile span ($h): $(head -3 "$tmp/out")"
  got=$(dns "$tmp/$h.json")
  [ -n "${T_VERBOSE:-}" ] && echo "$h $got"
  case $h in
  d*) [ "$got" = "$(dns "$tmp/cpu.jfr")" ] || fail "pcolDurationNanos ($h) not ignored: $got ns" ;;
  *) case $got in None | [0-9]*) ;; *) fail "hostile span ($h): duration '$got'" ;; esac
     [ "$got" != "$(dns "$tmp/cpu.jfr")" ] || fail "hostile span ($h) taken: $got ns" ;;
  esac
done

# the pprof export's default_sample_type is the default pcol top uses (THE
# default rule, pcol_selection_default_type), not its first source's: read
# back by pcol (tests/interop/t_pprof_header.sh: go tool pprof's Type:)
for f in "${ins[@]}"; do
  n=$(basename "$f")
  "$PCOL" unpack "$f" --to pprof -o "$tmp/$n.pb.gz" 2>/dev/null || fail "$n: unpack --to pprof"
  want=$(answer "$f" | sed 's/ total.*//')
  got=$(answer "$tmp/$n.pb.gz" | sed 's/ total.*//')
  [ "$got" = "$want" ] || fail "$n -> pprof -> pcol top: '$got', want '$want'"
done

# a Firefox file pcol did not write: the first thread's value
ff=$tmp/cpu.jfr.firefox.json
python3 - "$ff" "$tmp" <<'PY' || fail "making the Firefox files"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"].get("pcolDefaultValue") == "cpu", d["meta"].get("pcolDefaultValue")
del d["meta"]["pcolDefaultValue"]
open(sys.argv[2] + "/nodflt.json", "w").write(json.dumps(d))
d["threads"].reverse()
open(sys.argv[2] + "/reversed.json", "w").write(json.dumps(d))
for name, v in (("arr", [1]), ("none", "no_such_type"), ("esc", "\u001b[31mred")):
    d["meta"]["pcolDefaultValue"] = v
    open(sys.argv[2] + "/" + name + ".json", "w").write(json.dumps(d))
PY
[ "$(answer "$tmp/nodflt.json")" = "$(answer "$tmp/cpu.jfr")" ] ||
  fail "no pcolDefaultValue, the cpu threads first: '$(answer "$tmp/nodflt.json")', want '$(answer "$tmp/cpu.jfr")'"
want=$(answer "$tmp/cpu.jfr" --value allocation_weight)
[ "$(answer "$tmp/reversed.json")" = "$want" ] ||
  fail "no pcolDefaultValue, the allocation threads first: '$(answer "$tmp/reversed.json")', want '$want'"
for h in arr none esc; do
  "$PCOL" top "$tmp/$h.json" >"$tmp/out" 2>&1 || fail "pcolDefaultValue ($h): $(head -3 "$tmp/out")"
  grep -q $'\x1b' "$tmp/out" && fail "pcolDefaultValue ($h): an escape reached the terminal"
  [ "$(answer "$tmp/$h.json")" = "$want" ] || fail "pcolDefaultValue ($h) not ignored: '$(answer "$tmp/$h.json")'"
done
# the first thread weighs by samples, another by bytes: the count, every
# row of the bytes threads one sample (the JFR's allocation events)
python3 - "$tmp/count.jfr.firefox.json" "$tmp/count-nodflt.json" <<'PY' || fail "making count-nodflt.json"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"].get("pcolDefaultValue") == "samples", d["meta"].get("pcolDefaultValue")
del d["meta"]["pcolDefaultValue"]
w = [t["samples"]["weightType"] for t in d["threads"]]
assert w[0] == "samples" and "bytes" in w, w
open(sys.argv[2], "w").write(json.dumps(d))
PY
[ "$(answer "$tmp/count-nodflt.json")" = "$(answer "$tmp/count.jfr")" ] ||
  fail "no pcolDefaultValue, a samples thread first: '$(answer "$tmp/count-nodflt.json")', want '$(answer "$tmp/count.jfr")'"
echo "t_default_trip: ok"
