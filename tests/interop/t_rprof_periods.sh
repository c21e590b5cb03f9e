#!/usr/bin/env bash
# What an Rprof line of a counted source stands for, judged by R's
# summaryRprof (review 10 F3: CPython Tachyon profiles were exported as
# 10 ms ticks, 10x to 100x their time, silently):
#  1. every CPython 3.15 Tachyon recording of tests/fixtures/tachyon: the
#     source's period is the sampler's interval (pprof.period, `pcol info`;
#     wall, or cpu in --mode cpu), the pprof export carries it (go tool
#     pprof -raw's PeriodType/Period, when go is here), and the Rprof export
#     writes `sample.interval` = the interval and a line per sample, so
#     summaryRprof's sampling.time is pcol top --value wall (cpu)'s total and
#     its by.self each function's flat, to R's precision, with nothing on
#     stderr;
#     the same through pcol's Firefox export (`meta.interval` 1 ms a counted
#     sample, as samply writes it, read back as firefox.interval_ms): the
#     Rprof export of the copy gives summaryRprof the direct export's
#     sample.interval, sampling.time and by.self, with nothing on stderr
#     (review 12: 10 ms a sample, 10x, with a note that the profile states
#     no sampling period: the Rprof export had its own copy of THE interval
#     rule, without firefox.interval_ms);
#  2. Perfetto traced_perf samples taken at a frequency
#     (tests/fixtures/perfetto/perf_sample.textproto, `frequency: 100`:
#     their period varies, so they stay counted): the export writes 10 ms
#     ticks and says so (one rule for every source: rprof_export.c
#     note_not_time), summaryRprof reading samples x 10 ms;
#  3. a source that states no interval (counts of collapsed stacks) through
#     the Firefox export: its `meta.interval` 1 is pcol's choice, marked
#     `pcolIntervalStated` false, so the copy states none either and its
#     Rprof export is the direct one's, 10 ms ticks, noted.
# (JFR's native-method samples: tests/interop/t_jfr.sh.)  Exit 77 (skip)
# when Rscript is absent.
set -u
if ! command -v Rscript >/dev/null 2>&1; then
  echo "SKIP: R not installed (Rscript not found)"; exit 77
fi
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
W=$BUILD/interop-rprof-periods
rm -rf "$W" && mkdir -p "$W"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
have_go=0
command -v go >/dev/null 2>&1 && have_go=1

n=0
for f in tests/fixtures/tachyon/*.bin; do
  b=$(basename "$f" .bin)
  "$PCOL" info "$f" --format json >"$W/$b.info.json" || { bad "$b: pcol info"; continue; }
  v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rows"][0]["period_type"])' "$W/$b.info.json")
  "$PCOL" top "$f" --value "$v" --format json -n 0 >"$W/$b.top.json" 2>/dev/null || { bad "$b: pcol top --value $v"; continue; }
  "$PCOL" unpack "$f" --to rprof -o "$W/$b.out" 2>"$W/$b.err" || { bad "$b: pcol unpack --to rprof"; continue; }
  Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); cat(s$sample.interval, s$sampling.time, "\n"); b <- s$by.self; cat(paste(rownames(b), b$self.time, sep = "\t"), sep = "\n")' \
    "$W/$b.out" >"$W/$b.r.txt" 2>"$W/$b.r.err" || { bad "$b: summaryRprof: $(head -3 "$W/$b.r.err")"; continue; }
  # the Firefox copy: summaryRprof's every number as the direct export's
  rsum='s <- summaryRprof(commandArgs(TRUE)[1]); cat(s$sample.interval, s$sampling.time, "\n"); b <- s$by.self; cat(paste(rownames(b), b$self.time, sep = "\t"), sep = "\n")'
  if "$PCOL" unpack "$f" --to firefox -o "$W/$b.fx.json.gz" && "$PCOL" unpack "$W/$b.fx.json.gz" --to rprof -o "$W/$b.fx.out" 2>"$W/$b.fx.err" &&
    Rscript -e "$rsum" "$W/$b.fx.out" >"$W/$b.fx.r.txt" 2>/dev/null; then
    if cmp -s "$W/$b.r.txt" "$W/$b.fx.r.txt" && ! grep -v ': not written: ' "$W/$b.fx.err" | grep -q .; then
      echo "ok   $b via firefox: summaryRprof $(head -1 "$W/$b.fx.r.txt" | tr -d '\n')(interval, sampling.time) and by.self = the direct export's"
    else
      bad "$b via firefox: summaryRprof '$(head -1 "$W/$b.fx.r.txt")' where the direct export's is '$(head -1 "$W/$b.r.txt")'; stderr '$(cat "$W/$b.fx.err")'"
    fi
  else
    bad "$b: firefox -> rprof -> summaryRprof failed"
  fi
  raw=
  if [ $have_go = 1 ]; then
    "$PCOL" unpack "$f" --to pprof -o "$W/$b.pb.gz" 2>/dev/null || bad "$b: pcol unpack --to pprof"
    raw=$(go tool pprof -raw "$W/$b.pb.gz" 2>/dev/null | grep -E '^(PeriodType|Period):' | tr '\n' ' ')
  fi
  python3 - "$b" "$W/$b.info.json" "$W/$b.top.json" "$W/$b.r.txt" "$W/$b.err" "$f" "$raw" <<'PY' || bad "$b: summaryRprof of the Rprof export is not pcol's total"
import json, re, struct, sys
name, info, top, rtxt, err, binf, raw = sys.argv[1:8]
src = json.load(open(info))["rows"][0]
d = open(binf, "rb").read()
interval_us = struct.unpack("<Q", d[20:28])[0]  # the header's interval (little-endian files here)
assert src["period"] == interval_us * 1000 and src["period_unit"] == "nanoseconds", (src["period"], interval_us)
t = json.load(open(top))
lines = open(rtxt).read().splitlines()
iv, st = map(float, lines[0].split())
assert abs(iv - interval_us / 1e6) < 1e-12, "sample.interval %s s, the interval %d us" % (iv, interval_us)
assert abs(st - t["total"] / 1e9) < 1e-9, "sampling.time %s s, pcol top --value %s %s s" % (st, src["period_type"], t["total"] / 1e9)
r = {}
for l in lines[1:]:
    k, v = l.rsplit("\t", 1)
    r[k.strip('"')] = float(v)
# by name (two functions of one name in two files are one to R); R prints
# by.self in whole ms (rounded to 3 decimals, a row of 0 left out), as
# doc/mappings.md §1.3 says: each within half a ms
p = {}
for row in t["rows"]:
    p[row["name"]] = p.get(row["name"], 0) + row["flat"]
p = {k: v / 1e9 for k, v in p.items() if v}
assert set(r) <= set(p) and all(k in r for k, v in p.items() if v > 0.0006), sorted(set(r) ^ set(p))[:6]
worst = max(abs(r[k] - p[k]) for k in r)
assert worst <= 0.0005 + 1e-9, "by.self differs from pcol top's flat by %g s" % worst
# (nothing but the export's loss note, which t_written_value checks)
assert not [l for l in open(err).read().splitlines() if ": not written: " not in l], open(err).read()
if raw:
    assert "PeriodType: %s nanoseconds" % src["period_type"] in raw and "Period: %d" % (interval_us * 1000) in raw, raw
print("ok   %s: sample.interval=%d us, summaryRprof %.4f s = pcol top --value %s, %d functions' self = flat%s"
      % (name, interval_us, st, src["period_type"], len(r), "; go: " + raw.strip() if raw else ""))
PY
  n=$((n + 1))
done
[ $n -ge 4 ] || bad "only $n Tachyon fixtures judged"

if command -v protoc >/dev/null 2>&1; then
  protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto \
    <tests/fixtures/perfetto/perf_sample.textproto >"$W/ps.pftrace" || bad "protoc --encode perf_sample"
  s=$("$PCOL" cat "$W/ps.pftrace" --table sources --format tsv | awk -F'\t' '$3 ~ /perf samples \(cpu-clock\)$/ { print $1 }')
  "$PCOL" unpack "$W/ps.pftrace" --source "$s" --to rprof -o "$W/ps.out" 2>"$W/ps.err" || bad "perf_sample: pcol unpack --to rprof"
  c=$("$PCOL" top "$W/ps.pftrace" --source "$s" --value samples --format json -n 0 |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
  st=$(Rscript -e 'cat(summaryRprof(commandArgs(TRUE)[1])$sampling.time)' "$W/ps.out" 2>/dev/null)
  if grep -q "source $s: its samples are counted and it states no sampling period" "$W/ps.err" &&
    python3 -c 'import sys; assert abs(float(sys.argv[1]) - int(sys.argv[2]) * 0.01) < 1e-9' "$st" "$c"; then
    echo "ok   perf_sample (frequency: 100): $c samples, summaryRprof $st s (10 ms ticks), noted"
  else
    bad "perf_sample (frequency: 100): summaryRprof $st s for $c samples, stderr '$(cat "$W/ps.err")'"
  fi
else
  echo "note: protoc not installed: the Perfetto frequency case skipped"
fi

# 3. counts of collapsed stacks state no interval: through Firefox (meta.interval
# 1, pcol's choice, marked) the Rprof export is the direct one's, noted
c=tests/fixtures/collapsed/simple.folded
"$PCOL" unpack "$c" --to rprof -o "$W/co.out" 2>"$W/co.err" &&
  "$PCOL" unpack "$c" --to firefox -o "$W/co.json" && "$PCOL" unpack "$W/co.json" --to rprof -o "$W/co.fx.out" 2>"$W/co.fx.err" ||
  bad "collapsed -> rprof / firefox -> rprof failed"
a=$(Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); cat(s$sample.interval, s$sampling.time)' "$W/co.out" 2>/dev/null)
z=$(Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); cat(s$sample.interval, s$sampling.time)' "$W/co.fx.out" 2>/dev/null)
if [ -n "$a" ] && [ "$a" = "$z" ] && [ "${a%% *}" = 0.01 ] && grep -q 'states no sampling period' "$W/co.err" &&
  grep -q 'states no sampling period' "$W/co.fx.err" && grep -q '"pcolIntervalStated":false' "$W/co.json" &&
  ! "$PCOL" cat "$W/co.json" --table meta | grep -q firefox.interval_ms; then
  echo "ok   collapsed via firefox: summaryRprof $z (10 ms ticks, noted), as the direct export"
else
  bad "collapsed via firefox: summaryRprof '$z', direct '$a'; notes '$(cat "$W/co.err")' / '$(cat "$W/co.fx.err")'"
fi

[ $fail = 0 ] && echo "t_rprof_periods: ok" || { echo "t_rprof_periods: FAIL"; exit 1; }
