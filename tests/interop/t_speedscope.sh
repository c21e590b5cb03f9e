#!/usr/bin/env bash
# speedscope reads what `pcol unpack --to speedscope` writes.
#
# Installs the speedscope npm package (and ajv) into a cache directory, then
# for collapsed, Perun, Rprof and pprof inputs: validates the output against
# the file-format schema speedscope ships (ajv, draft-07) and loads it with
# speedscope's own importer, taken from its release bundle and run in node
# (the bundle is a browser app: the script finds the importer that handles
# "$schema": ".../file-format-schema.json" and stops the bundle before it
# renders).  The "samples" profile's total (THE count rule: a pprof
# sample's samples/count, else the weight) must equal the sum of `pcol unpack
# --to collapsed`, and for pprof inputs `go tool pprof -sample_index=samples`'s
# total; speedscope must open (activeProfileIndex) on the profile of the type
# `go tool pprof -top` shows by default, and profile names must be distinct.
#
# Env: PCOL, BUILD, PCOL_TESTDATA, PCOL_NPM_DIR (npm install dir; default
# $BUILD/npm-speedscope).  Exit 0 pass, 1 fail, 77 skip (no node/npm or no
# registry).
set -u
TD=${PCOL_TESTDATA:-../shared/testdata}
. "$(dirname "$0")/speedscope_env.sh"
JUDGE=$(dirname "$0")/speedscope_judge.cjs
# load FILE > SUMMARY: speedscope's importer reads FILE ({active, profiles:
# [{name, type, total, frames}]}), or says why not on stderr
load() {
  echo "$1" >"$tmp/list"
  node "$JUDGE" "$NPM_DIR" "$BUNDLE" "$SCHEMA" "$tmp/list" "$tmp/rec" >/dev/null &&
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
if 'error' in r:
    sys.exit('speedscope rejected the file: ' + r['error'])
print(json.dumps(r))" "$tmp/rec"
}

inputs=(tests/fixtures/collapsed/simple.folded tests/fixtures/collapsed/annotated.folded
        tests/fixtures/collapsed/decimal.folded tests/fixtures/perun/kperf.perf
        tests/fixtures/perun/trace-complexity.perf tests/fixtures/perun/layout2-snapshots.perf)
for f in "$TD"/rprof/*.out "$TD"/perun/*.perf "$TD"/pprof/go-cpu-inline-small.pb.gz \
         "$TD"/pprof/go-cpu-string-labels.pb.gz "$TD"/ext/pprof/go-benchmark-cpu.pb.gz \
         "$TD"/pprof/go-heap-allocs-inline.pb.gz "$TD"/pprof/nodejs-wall.pb.gz \
         "$TD"/pprof/edge-invalid-utf8-nul-strings.pb.gz; do
  [ -f "$f" ] && inputs+=("$f")
done

fail=0 n=0
check() { # name pcol-file original-input extra-args...
  local name=$1 p=$2 orig=$3; shift 3
  if ! $PCOL unpack "$p" --to speedscope -o "$tmp/out.json" "$@" 2>"$tmp/err"; then
    echo "FAIL $name: unpack: $(cat "$tmp/err")"; fail=1; return
  fi
  if ! load "$tmp/out.json" >"$tmp/sum" 2>"$tmp/err"; then
    echo "FAIL $name: $(head -c 2000 "$tmp/err")"; fail=1; return
  fi
  local got want
  got=$(python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); names=[p['name'] for p in d['profiles']]
assert len(set(names))==len(names), 'duplicate profile names: %r' % names
print([p['total'] for p in d['profiles'] if p['name'].endswith(': samples')][0])" "$tmp/sum") || {
    echo "FAIL $name: no distinct names or no samples profile: $(cat "$tmp/sum" | head -c 500)"; fail=1; return; }
  want=$($PCOL unpack "$p" --to collapsed --value samples -o - "$@" | awk '{s+=$NF} END{printf "%d\n", s}')
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: speedscope samples total $got != pcol unpack --to collapsed --value samples total $want"; fail=1; return
  fi
  case $name in *.out*) # Rprof: a cpu profile by the time rule, no summed memory snapshots
    local cpu wcpu
    cpu=$(python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
assert not [p for p in d['profiles'] if p['name'].split(': ')[-1] in ('vsize.small','vsize.large','nodes','duplications')], 'memory snapshots summed'
print([p['total'] for p in d['profiles'] if p['name'].endswith(': cpu')][0])" "$tmp/sum") || {
      echo "FAIL $name: no cpu profile, or memory snapshots as weights"; fail=1; return; }
    wcpu=$($PCOL unpack "$p" --to collapsed --value cpu -o - "$@" | awk '{s+=$NF} END{printf "%.0f\n", s}')
    if [ "$cpu" != "$wcpu" ]; then
      echo "FAIL $name: speedscope cpu total $cpu != pcol collapsed --value cpu total $wcpu"; fail=1; return
    fi;;
  esac
  case $name in *.pb.gz|*.pb) # the reference tool: go tool pprof
    if command -v go >/dev/null 2>&1; then
      local gt dt active
      gt=$(go tool pprof -symbolize=none -top -nodecount=1 -sample_index=samples "$orig" 2>/dev/null |
           sed -n 's/.* of \([0-9]*\) total.*/\1/p')
      if [ -n "$gt" ] && [ "$gt" != "$got" ]; then
        echo "FAIL $name: speedscope samples total $got != go tool pprof -sample_index=samples $gt"; fail=1; return
      fi
      dt=$(go tool pprof -symbolize=none -top -nodecount=1 "$orig" 2>/dev/null | sed -n 's/^Type: //p')
      active=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['profiles'][d['active']]['name'])" "$tmp/sum")
      case $active in *": $dt") ;; *)
        echo "FAIL $name: speedscope opens on '$active', go tool pprof shows type '$dt'"; fail=1; return;; esac
    fi;;
  esac
  n=$((n + 1))
}
for f in "${inputs[@]}"; do
  b=$(basename "$f")
  if ! $PCOL pack "$f" -o "$tmp/in.pcol" 2>"$tmp/err"; then
    echo "FAIL $b: pack: $(cat "$tmp/err")"; fail=1; continue
  fi
  check "$b" "$tmp/in.pcol" "$f"
done
# timed samples give an evented timeline too (one source selected)
for f in "$TD"/rprof/*.out; do
  [ -f "$f" ] || continue
  $PCOL pack "$f" -o "$tmp/r.pcol" && check "$(basename "$f") --source 1" "$tmp/r.pcol" "$f" --source 1
  grep -q '"evented"' "$tmp/out.json" || { echo "FAIL $(basename "$f"): no evented profile for timed samples"; fail=1; }
  break
done
# a timeline that carries each sample's own time and duration (pcolTimes,
# pcolDurations: one sample a row) for the shapes its stretches cannot line
# up with (a gap inside a run of one stack, two samples at one time, an empty
# stack; perf script written here): speedscope reads it, keys and all
sh() { printf 'app 100/100 [000] %s: 1000000 cpu-clock: \n' "$1"; shift; for fr in "$@"; do printf '\t401000 %s (/bin/app)\n' "$fr"; done; echo; }
{ sh 1.000000 work main; sh 1.001000 work main; sh 1.002000 work main; sh 1.010000 work main
  sh 1.011000 other main; sh 1.011000 third; sh 1.012000; sh 1.013000 work main; } > "$tmp/shapes.txt"
$PCOL pack "$tmp/shapes.txt" -o "$tmp/shapes.pcol" && check "shapes.txt (timeline)" "$tmp/shapes.pcol" "$tmp/shapes.txt"
grep -q '"evented".*"pcolTimes"' "$tmp/out.json" || { echo "FAIL shapes.txt: no timeline with pcolTimes"; fail=1; }
# the timeline's time is what the samples measured (THE span rule,
# lib/core/lasts.h): three threads sampled at 4 kHz (perf's period 250000
# ns), interleaved 1 us apart, one of them idle for a while (its gaps 300
# us and 2 ms, wider than its period).  speedscope reads one timeline a
# thread, whose frames' self and total times, added up over the threads,
# are the cpu-clock profile's, frame by frame; so with one thread selected.
# (Before: a sample lasted at most the smallest gap between any two
# samples, 1 us: the timeline held 0.4% of the time.)  The Firefox export's
# meta.interval is that period in ms (the profiler's unit), 0.25, not the
# smallest gap (0.001).
python3 - "$tmp/threads.txt" <<'PY'
import sys
rows = []
for k, (tid, stacks, gaps) in enumerate([
        (201, [['spin', 'main'], ['hash', 'spin', 'main']], [250] * 40),
        (202, [['copy', 'worker'], ['zero', 'copy', 'worker']], [250] * 40),
        (203, [['poll', 'io'], ['read', 'io']], [250] * 10 + [300] * 10 + [2000, 250, 250])]):
    t = 1000000 + k
    for i, g in enumerate(gaps):
        rows.append((t, tid, stacks[(i // 3) % 2]))
        t += g
rows.sort()
with open(sys.argv[1], 'w') as o:
    for t, tid, st in rows:
        o.write('app %d/%d [000] %d.%06d: 250000 cpu-clock: \n' % (200, tid, t // 1000000, t % 1000000))
        for fr in st:
            o.write('\t401000 %s (/bin/app)\n' % fr)
        o.write('\n')
PY
$PCOL pack "$tmp/threads.txt" -o "$tmp/threads.pcol" || fail=1
for sel in "" "--tag tid=203"; do
  # shellcheck disable=SC2086
  $PCOL unpack "$tmp/threads.pcol" $sel --to speedscope --timeline -o "$tmp/thr.json" || { fail=1; continue; }
  if ! load "$tmp/thr.json" >"$tmp/thr.sum"; then echo "FAIL threads.txt $sel: speedscope did not load it"; fail=1; continue; fi
  python3 - "$tmp/thr.sum" "${sel:-all}" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
cpu = [p for p in r['profiles'] if p['name'].endswith(': cpu-clock')][0]['frames']
tls = [p for p in r['profiles'] if p['type'] == 'evented']
want = 3 if sys.argv[2] == 'all' else 1
if len(tls) != want:
    sys.exit('FAIL threads.txt %s: %d timelines, want %d (one a thread): %s' % (sys.argv[2], len(tls), want, [p['name'] for p in tls]))
got = {}
for p in tls:
    for name, (s, t, _) in p['frames'].items():
        g = got.setdefault(name, [0, 0])
        g[0] += s
        g[1] += t
for name, (s, t, _) in cpu.items():
    if got.get(name) != [s, t]:
        sys.exit('FAIL threads.txt %s: %s in the timelines %s ns (self, total), in cpu-clock %s' % (sys.argv[2], name, got.get(name), [s, t]))
if set(got) != set(cpu):
    sys.exit('FAIL threads.txt %s: frames %s only in the timelines' % (sys.argv[2], set(got) - set(cpu)))
PY
done
$PCOL unpack "$tmp/threads.pcol" --to firefox --no-gzip -o "$tmp/thr.ff.json" &&
  python3 -c "
import json, sys
iv = json.load(open(sys.argv[1]))['meta']['interval']
sys.exit(0 if iv == 0.25 else 'FAIL threads.txt: firefox meta.interval %r ms, want 0.25 (the period)' % iv)" "$tmp/thr.ff.json" || fail=1
# THE span rule and THE placement rule (lib/core/lasts.h): a sample of its
# own length lasts that length, laid after the previous one of its thread
# when that one runs past its time (clip.txt: a 250 us period, samples of
# one thread 100 us apart: each lasts 250 us, end to end; before, each was
# cut at the next, 100 us, and the timeline held 40% of the cpu-clock
# profile), and a sample of no known length lasts until the next of its
# thread but at most the median gap between a thread's consecutive samples
# (cap.txt: perf script without periods, 1 ms apart but for one 40 ms
# pause, which the sample before it does not fill).  The want: each
# thread's frames' self and total time computed here from the rows
# written, by that rule; speedscope's reading of each thread's timeline
# must equal it.
for shape in clip cap; do
  python3 - "$shape" "$tmp/$shape.txt" "$tmp/$shape.want" <<'PY'
import json, sys
shape, out, want = sys.argv[1:4]
if shape == 'clip':  # (tid, period ns, gaps us)
    threads = [(204, 250000, [100] * 30), (205, 250000, [300] * 20)]
else:
    threads = [(301, None, [1000] * 12 + [40000] + [1000] * 5), (302, None, [1000] * 20)]
stacks = [['spin', 'main'], ['hash', 'spin', 'main'], ['poll', 'main']]
rows = []
for k, (tid, per, gaps) in enumerate(threads):
    t = 1000000 + k
    for i, g in enumerate(gaps):
        rows.append((t, tid, per, stacks[(i // 2) % 3]))
        t += g
rows.sort()
with open(out, 'w') as o:
    for t, tid, per, st in rows:
        o.write('app %d/%d [000] %d.%06d: %scpu-clock: \n' % (200, tid, t // 1000000, t % 1000000, '%d ' % per if per else ''))
        for fr in st:
            o.write('\t401000 %s (/bin/app)\n' % fr)
        o.write('\n')
gaps = sorted(1000 * g for _, _, gs in threads for g in gs[:-1])
median = gaps[len(gaps) // 2]
res = {}
for tid, per, gs in threads:
    mine = [r for r in rows if r[1] == tid]
    fr = res['app tid %d' % tid] = {}
    for i, (t, _, _, st) in enumerate(mine):
        gap = (mine[i + 1][0] - t) * 1000 if i + 1 < len(mine) else None
        if per: span = per
        else: span = median if gap is None else min(gap, median)
        for n in set(st):
            fr.setdefault(n, [0, 0])[1] += span
        fr[st[0]][0] += span
json.dump(res, open(want, 'w'))
PY
  $PCOL unpack "$tmp/$shape.txt" --to speedscope --timeline -o "$tmp/$shape.json" || { fail=1; continue; }
  if ! load "$tmp/$shape.json" >"$tmp/$shape.sum"; then echo "FAIL $shape.txt: speedscope did not load it"; fail=1; continue; fi
  python3 - "$tmp/$shape.sum" "$tmp/$shape.want" "$shape" <<'PY' || fail=1
import json, re, sys
r, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
got = {}
for p in r['profiles']:
    m = re.search(r': timeline \((.*)\)$', p['name'])
    if p['type'] == 'evented' and m:
        got[m[1]] = {n: [s, t] for n, (s, t, _) in p['frames'].items()}
if got != want:
    sys.exit('FAIL %s.txt: the timelines (frame: self, total ns) %s, by the span rule %s' % (sys.argv[3], got, want))
PY
done
# V8 (`node --cpu-prof` of a recursive fib, recorded here): speedscope's
# reading of the export's timeline is its wall profile, frame by frame (self
# and total), and that is speedscope's own reading of the .cpuprofile for
# every name both have.  The last sample measured no time (V8's wall 0):
# drawn for DevTools' mean gap, it gave fib 696.357 ms in the timeline,
# 694.457 ms in wall and in speedscope's reading (review 13 m6).
if command -v node >/dev/null; then
  cat >"$tmp/fib.js" <<'J'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const t = Date.now(); let s = 0; while (Date.now() - t < 300) s += fib(22);
J
  if node --cpu-prof --cpu-prof-dir="$tmp/fibprof" --cpu-prof-name=fib.cpuprofile "$tmp/fib.js" &&
     $PCOL unpack "$tmp/fibprof/fib.cpuprofile" --to speedscope --timeline -o "$tmp/fib.json"; then
    printf '%s\n' "$tmp/fibprof/fib.cpuprofile" "$tmp/fib.json" >"$tmp/fib.list"
    if speedscope_import "$tmp/fib.list" "$tmp/fib.jsonl" >/dev/null; then
      python3 - "$tmp/fib.jsonl" <<'PY' || fail=1
import json, sys
own, ours = [json.loads(l) for l in open(sys.argv[1])]
for r in (own, ours):
    if 'error' in r:
        sys.exit('FAIL fib: speedscope: %s: %s' % (r['file'], r['error']))
tl = [p for p in ours['profiles'] if p['name'].endswith(': timeline')]
wall = [p for p in ours['profiles'] if p['name'].endswith(': wall')]
if len(tl) != 1 or len(wall) != 1 or len(own['profiles']) != 1:
    sys.exit('FAIL fib: profiles %s' % [p['name'] for p in ours['profiles']])
t, w, o = tl[0]['frames'], wall[0]['frames'], own['profiles'][0]['frames']
if t != w:
    diff = sorted((n, t.get(n), w.get(n)) for n in set(t) | set(w) if t.get(n) != w.get(n))
    sys.exit('FAIL fib: the timeline (frame: self, total ns) is not wall: %s' % diff[:4])
both = sorted(set(w) & set(o))
# self exactly; a total within the time of the (garbage collector) and
# (program) samples, which speedscope's importer moves onto the stack of
# the sample before them where pcol keeps them where V8 put them
# (doc/mappings.md, V8's special frames): a recording with a GC during
# start-up gave its callers 1.572 ms more in speedscope's reading
moved = 1000 * sum(o[n][0] for n in ('(garbage collector)', '(program)') if n in o)
bad = [(n, w[n], o[n]) for n in both
       if abs(w[n][0] - 1000 * o[n][0]) > 1e-6 * max(1, abs(w[n][0]))
       or abs(w[n][1] - 1000 * o[n][1]) > moved + 1e-6 * max(1, abs(w[n][1]))]
if 'fib' not in both or bad:
    sys.exit('FAIL fib: wall (ns) against speedscope\'s reading of the .cpuprofile (us): %s' % (bad[:4] or both))
print('ok   fib.cpuprofile: the timeline is wall, frame by frame, and speedscope\'s own reading (fib %.3f ms)' % (w['fib'][1] / 1e6))
PY
      n=$((n + 1))
    else
      echo "FAIL fib: speedscope's importer did not run"; fail=1
    fi
  else
    echo "FAIL fib: node --cpu-prof or the export"; fail=1
  fi
fi
# Tachyon (CPython 3.15's sampling profiler: real recordings) stamps the
# samples that catch up missed ticks in bursts 10-30 us apart, each one
# interval (THE span rule's weight x interval): laid end to end (THE
# placement rule, lib/core/lasts.h), each thread's timeline "(tid N)" adds
# up, frame by frame (self and total), to the time profile (wall or cpu) of
# that thread's samples (--tag tid=N; a recording of one thread: the
# whole profile's).  Before, each sample was cut at the next of its thread
# and the timelines held 20-75% of it (threads-wall-zstd's main thread:
# squares 291.6 of 607 ms; review 12 F1).
: >"$tmp/ty.list"
for f in tests/fixtures/tachyon/*.bin; do
  b=$(basename "$f" .bin)
  $PCOL unpack "$f" --to speedscope --timeline -o "$tmp/ty_$b.json" || { echo "FAIL $b: unpack"; fail=1; continue; }
  echo "$tmp/ty_$b.json" >>"$tmp/ty.list"
  for tid in $(python3 -c "
import json, re, sys
for p in json.load(open(sys.argv[1]))['profiles']:
    m = re.search(r': timeline \(tid (\d+)\)$', p['name'])
    if m: print(m[1])" "$tmp/ty_$b.json"); do
    $PCOL unpack "$f" --tag "tid=$tid" --to speedscope --no-timeline -o "$tmp/ty_${b}_$tid.json" || { fail=1; continue; }
    echo "$tmp/ty_${b}_$tid.json" >>"$tmp/ty.list"
  done
done
if ! node "$JUDGE" "$NPM_DIR" "$BUNDLE" "$SCHEMA" "$tmp/ty.list" "$tmp/ty.jsonl" >/dev/null; then
  echo "FAIL tachyon: speedscope's importer did not run"; fail=1
else
  python3 - "$tmp/ty.jsonl" <<'PY' || fail=1
import json, os, re, sys
recs = {os.path.basename(r['file']): r for r in map(json.loads, open(sys.argv[1]))}
bad = 0
for name, r in sorted(recs.items()):
    if 'error' in r:
        print('FAIL %s: speedscope: %s' % (name, r['error'])); bad = 1; continue
    tls = [p for p in r['profiles'] if p['type'] == 'evented']
    if not tls:
        continue  # a thread's own export
    for p in tls:
        m = re.search(r': timeline \(tid (\d+)\)$', p['name'])
        ref = recs.get(name[:-5] + '_' + m[1] + '.json') if m else r
        if m and (not ref or 'error' in ref):
            print('FAIL %s: no export of tid %s' % (name, m[1])); bad = 1; continue
        # its time profile (wall, cpu: the weight x the interval), not the count
        tp = [q for q in ref['profiles'] if q['type'] == 'sampled' and not q['name'].endswith(': samples')][0]
        want = {n: [s, t] for n, (s, t, _) in tp['frames'].items()}
        got = {n: [s, t] for n, (s, t, _) in p['frames'].items()}
        if got != want:
            diff = sorted((n, got.get(n), want.get(n)) for n in set(got) | set(want) if got.get(n) != want.get(n))
            print('FAIL %s: %s (frame: timeline, %s: self, total ns) %s' % (name, p['name'], tp['name'], diff[:4]))
            bad = 1
    if not bad:
        print('ok   %s: %d timeline(s) add up to the time profile, frame by frame' % (name, len(tls)))
sys.exit(bad)
PY
  n=$((n + 1))
fi
# a range's timelines end at its end: a sample laid past it is not drawn
# (before the clip, threads-wall-zstd's 300 ms range drew to 305.9 ms)
$PCOL unpack tests/fixtures/tachyon/threads-wall-zstd.bin --from 0.2 --to 0.5 --to speedscope -o "$tmp/tyr.json" || fail=1
python3 - "$tmp/tyr.json" <<'PY' || fail=1
import json, sys
tls = [p for p in json.load(open(sys.argv[1]))['profiles'] if p['type'] == 'evented']
late = [(p['name'], p['endValue'], max(e['at'] for e in p['events'])) for p in tls
        if p['endValue'] > 3 * 10**8 or any(e['at'] > 3 * 10**8 for e in p['events'])]
if len(tls) != 3 or late:
    sys.exit('FAIL threads-wall-zstd --from 0.2 --to 0.5: %d timelines, past the 300 ms range: %s' % (len(tls), late))
PY
# A --from/--to range's export (doc/mappings.md §5): its source's window
# in the range (pcolStart, pcolDuration: what pcol top of the range says,
# THE range rule of the header, pcol_sources_time) and its timeline from
# that window's start, so speedscope's timeline of the range is the
# range's length, the samples at their instants; a wall-clock range the
# same.  window_gen.py's one.json: 4 s sampled all through, main;a and
# main;b by turns, 10 ms each.  Before, the timeline began at the
# source's start (a relative range's: a second of nothing before it,
# speedscope's total 2 s for a 1 s range) or at the wall-clock range's
# start in ns since 1970 (every event at 1.77e18).
T0=1767225658
python3 "$(dirname "$0")/../support/window_gen.py" "$tmp" "$T0" || fail=1
for r in "--from 1 --to 2" "--from 2026-01-01T00:00:59Z --to 2026-01-01T00:01:00Z" "--from 2.5 --to 3.5"; do
  # shellcheck disable=SC2086
  $PCOL unpack "$tmp/one.json" $r --to speedscope --timeline -o "$tmp/rng.json" || { fail=1; continue; }
  if ! load "$tmp/rng.json" >"$tmp/rng.sum"; then echo "FAIL one.json $r: speedscope did not load it"; fail=1; continue; fi
  # shellcheck disable=SC2086
  dur=$($PCOL top "$tmp/one.json" $r -n 1 | sed -n 's/^Duration: \([^,]*\),.*/\1/p')
  python3 - "$tmp/rng.sum" "$r" "$dur" <<'PY' || fail=1
import json, sys
r, rng, dur = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
if dur != '1s':
    sys.exit('FAIL one.json %s: pcol top says Duration: %s, not 1s' % (rng, dur))
names = sorted(p['name'] for p in r['profiles'])
if names != ['one.json: one: samples', 'one.json: one: timeline', 'one.json: one: wall']:
    sys.exit('FAIL one.json %s: profiles %s' % (rng, names))
for p in r['profiles']:
    got = {n: [s, t] for n, (s, t, _) in p['frames'].items()}
    want = {'main': [0, 10**9], 'a': [5 * 10**8] * 2, 'b': [5 * 10**8] * 2}
    if p['name'].endswith(': samples'):  # the count: 100 samples of 10 ms
        want = {'main': [0, 100], 'a': [50, 50], 'b': [50, 50]}
    if p['total'] != sum(w[0] for w in want.values()) or got != want:
        sys.exit('FAIL one.json %s: speedscope reads %s (%s) as %s ns over a total of %s, want the range\'s '
                 '1 s (pcol top\'s Duration:) and %s' % (rng, p['name'], p['type'], got, p['total'], want))
print('ok   one.json %s: speedscope\'s timeline and samples are the range\'s 1 s' % rng)
PY
  n=$((n + 1))
done
# a range that misses overrun.json's stated window but selects its rows past
# it, beside later.json: the copy writes overrun with later's cut start, its
# times before that start (negative: the same instants); and the eBPF
# profiler's OTLP message (83 parts), a second of it: speedscope loads both,
# the samples' total the range's (pcol top's)
$PCOL merge "$tmp/later.json" "$tmp/overrun.json" -o "$tmp/lo.pcol" || fail=1
ebpf=$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin
for c in "$tmp/lo.pcol --from 1.5 --to 2.5" "$ebpf --from 1 --to 2"; do
  # shellcheck disable=SC2086
  set -- $c
  [ -f "$1" ] || continue
  # shellcheck disable=SC2086
  $PCOL unpack $c --to speedscope -o "$tmp/rng2.json" 2>/dev/null || { echo "FAIL $c: unpack"; fail=1; continue; }
  if ! load "$tmp/rng2.json" >"$tmp/rng2.sum"; then echo "FAIL $(basename "$1") ${*:2}: speedscope did not load it"; fail=1; continue; fi
  # shellcheck disable=SC2086
  want=$($PCOL top $c --value samples -n 1 --unit raw 2>/dev/null | sed -n 's/.* of \([0-9]*\) total.*/\1/p')
  python3 - "$tmp/rng2.sum" "$want" "$c" <<'PY' || fail=1
import json, sys
r, want, c = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
got = sum(p['total'] for p in r['profiles'] if p['name'].endswith(': samples'))
if got != want:
    sys.exit('FAIL %s: speedscope counts %d samples, pcol top %d' % (c, got, want))
print('ok   %s: speedscope loads the copy, %d samples as pcol top' % (c.split('/')[-1], got))
PY
  n=$((n + 1))
done
echo "t_speedscope: $n files loaded by speedscope $SPEEDSCOPE_VERSION"
exit $fail
