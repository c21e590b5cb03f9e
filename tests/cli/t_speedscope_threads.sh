#!/usr/bin/env bash
# pcol -> speedscope -> pcol keeps a source's threads (review 12 F6): the
# export writes each sample's thread (pcolThreads, beside pcolTimes) and each
# thread's labels (pcolThread on its timeline), the import gives them back,
# so the copy has the original's threads: `pcol tags` of the thread labels,
# each thread's totals of every type and its functions, the Firefox export's
# threads, and the speedscope re-export's per-thread timelines.  Before, the
# copy had no thread label: one Firefox thread of 3, one timeline "URI:
# timeline" in which threads that ran at once cut each other off.  Inputs: a
# Tachyon recording of 3 threads (tests/fixtures/tachyon) and a perf script
# of 6 threads made by tests/support/gen_perf_script.py; a Tachyon
# recording of one thread; an older pcol's file (no such keys) and damaged
# keys read as before.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_speedscope_threads: $*" >&2; exit 1; }

python3 tests/support/gen_perf_script.py "$tmp/mt.txt" "$tmp/mt.truth" --style pidtid --samples 400 --seed 3 ||
  fail "generator"
# the blocks of `pcol tags` of the labels a thread is known by
thread_tags() {
  $PCOL tags "$1" --value "$2" | awk '/^ *[^ ]+: Total/{k = $1} k ~ /^(thread_name|thread|thread_id|tid|comm|pid):$/'
}
# the Firefox export's threads: name, tid, pid, samples and their weight
ff_threads() {
  $PCOL unpack "$1" --to firefox -o "$tmp/ff.json" || fail "$1: firefox export"
  python3 - "$tmp/ff.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d['threads']:
    s = t['samples']
    w = s.get('weight') or [1] * len(s['stack'])
    print(t['name'], t.get('tid'), t.get('pid'), len(s['stack']), sum(w))
PY
}
# the speedscope file's timelines: name, pcolThread, and (with `events`) the events
timelines() {
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d['profiles']:
    if p['type'] != 'evented':
        continue
    print(p['name'], json.dumps(p.get('pcolThread'), sort_keys=True), json.dumps(p['events']) if sys.argv[2] == 'events' else '')
PY
}

for f in tests/fixtures/tachyon/threads-wall-zstd.bin "$tmp/mt.txt"; do
  n=$(basename "$f")
  $PCOL unpack "$f" --to speedscope -o "$tmp/a.json" || fail "$n: speedscope export"
  $PCOL unpack "$tmp/a.json" --to speedscope -o "$tmp/b.json" || fail "$n: speedscope export of the copy"
  nth=$($PCOL top "$f" --by label:tid --format tsv | tail -n +2 | wc -l)
  [ "$nth" -ge 3 ] || fail "$n: $nth threads, not a source of several"
  # every thread's totals, of every type, and the thread labels' tags
  for v in $($PCOL info "$f" | sed -n 's/^ *values: *//p' | sed 's/ (default.*//; s/,//g'); do
    t=${v%%/*}
    [ "$($PCOL top "$f" --by label:tid --value "$t" --format tsv)" = "$($PCOL top "$tmp/a.json" --by label:tid --value "$t" --format tsv)" ] ||
      fail "$n: the threads' $t after pcol -> speedscope -> pcol: $($PCOL top "$tmp/a.json" --by label:tid --value "$t" --format tsv 2>&1 | head -5)"
    thread_tags "$f" "$t" > "$tmp/t1"
    thread_tags "$tmp/a.json" "$t" > "$tmp/t2"
    [ -s "$tmp/t1" ] || fail "$n: no thread label in pcol tags"
    diff "$tmp/t1" "$tmp/t2" > "$tmp/d" || fail "$n: pcol tags --value $t of the threads after pcol -> speedscope -> pcol: $(head -8 "$tmp/d")"
  done
  # each thread's functions (but the inline marks speedscope has no place for)
  fns() { $PCOL top "$1" --tag "tid=$2:$2" --format tsv 2> /dev/null | cut -f1-6,8; }
  for tid in $($PCOL top "$f" --by label:tid --format tsv | tail -n +2 | cut -f6); do
    [ "$(fns "$f" "$tid" | wc -l)" -gt 1 ] || fail "$n: thread $tid has no function"
    [ "$(fns "$f" "$tid")" = "$(fns "$tmp/a.json" "$tid")" ] ||
      fail "$n: thread $tid's functions after pcol -> speedscope -> pcol: $(diff <(fns "$f" "$tid") <(fns "$tmp/a.json" "$tid") | head -5)"
  done
  # the Firefox export's threads
  ff_threads "$f" > "$tmp/f1"
  ff_threads "$tmp/a.json" > "$tmp/f2"
  [ "$(wc -l < "$tmp/f1")" = "$nth" ] || fail "$n: the Firefox export has $(wc -l < "$tmp/f1") threads, not $nth"
  diff "$tmp/f1" "$tmp/f2" > "$tmp/d" || fail "$n: the Firefox export's threads after pcol -> speedscope -> pcol: $(head -8 "$tmp/d")"
  # the speedscope re-export: the same timelines, one a thread, event for
  # event (a Tachyon sample lasts its weight x the interval, pcolInterval)
  timelines "$tmp/a.json" events > "$tmp/s1"
  timelines "$tmp/b.json" events > "$tmp/s2"
  [ "$(wc -l < "$tmp/s1")" = "$nth" ] || fail "$n: $(wc -l < "$tmp/s1") timelines, not $nth"
  grep -q '"tid": ' "$tmp/s1" || fail "$n: no pcolThread: $(cut -c1-200 "$tmp/s1")"
  diff "$tmp/s1" "$tmp/s2" > "$tmp/d" || fail "$n: the speedscope re-export's timelines: $(cut -c1-300 "$tmp/d" | head -6)"
done

# pcol -> speedscope -> pcol -> speedscope: the copy's timelines are the
# original's, event for event, where a sample lasts its weight x the
# source's interval (THE span rule's 4, lib/core/lasts.h: every Tachyon
# recording of tests/fixtures/tachyon, a Firefox profile), which the export
# carries (pcolInterval) and the import gives back (meta pcol.interval_ns,
# read by THE interval rule); an Rprof file's (its interval x ticks, the
# cpu time the export writes).  Before, the copy had no interval, and its
# samples were drawn to the next one of their thread, at most the median gap
# (THE span rule's 6): threads-wall-zstd's main thread ended at 762.4 ms,
# not 770.9.
python3 tests/support/firefox_gen.py v48 "$tmp/ff.json" > /dev/null || fail "firefox_gen.py"
for f in tests/fixtures/tachyon/*.bin "$tmp/ff.json" tests/fixtures/rprof/interleaved.out; do
  n=$(basename "$f")
  $PCOL unpack "$f" --to speedscope --timeline -o "$tmp/a.json" || fail "$n: speedscope export"
  $PCOL unpack "$tmp/a.json" --to speedscope --timeline -o "$tmp/b.json" || fail "$n: speedscope export of the copy"
  timelines "$tmp/a.json" events > "$tmp/s1"
  timelines "$tmp/b.json" events > "$tmp/s2"
  [ -s "$tmp/s1" ] || fail "$n: no timeline"
  diff "$tmp/s1" "$tmp/s2" > "$tmp/d" || fail "$n: the round trip's timelines: $(cut -c1-300 "$tmp/d" | head -6)"
done
$PCOL unpack tests/fixtures/tachyon/aio-wall-none.bin --to speedscope -o "$tmp/a.json" || fail "aio: speedscope export"
grep -q '"pcolInterval":1000000[,}]' "$tmp/a.json" || fail "aio: no pcolInterval of its 1 ms"
$PCOL pack "$tmp/a.json" -o "$tmp/a.pcol" && $PCOL cat "$tmp/a.pcol" --table meta | grep -Pq '^pcol\.interval_ns\t1000000\t' ||
  fail "aio: the copy's meta has no pcol.interval_ns: $($PCOL cat "$tmp/a.pcol" --table meta | grep interval)"

# a Tachyon recording of one thread: its one timeline names it, and the
# copy's samples have it
f=tests/fixtures/tachyon/aio-wall-none.bin
$PCOL unpack "$f" --to speedscope -o "$tmp/a.json" || fail "aio: speedscope export"
! grep -q pcolThreads "$tmp/a.json" || fail "aio: pcolThreads written for a source of one thread"
grep -q '"pcolThread":{"tid":' "$tmp/a.json" || fail "aio: its timeline has no pcolThread"
[ "$($PCOL top "$f" --by label:tid --format tsv)" = "$($PCOL top "$tmp/a.json" --by label:tid --format tsv)" ] ||
  fail "aio: the thread after pcol -> speedscope -> pcol: $($PCOL top "$tmp/a.json" --by label:tid --format tsv 2>&1 | head -3)"

# an older pcol's file (neither key) reads as before: no thread, the same
# numbers; damaged keys are left out, the times kept
$PCOL unpack "$tmp/mt.txt" --to speedscope -o "$tmp/a.json" || fail "mt: speedscope export"
python3 - "$tmp/a.json" "$tmp" <<'PY' || fail "rewriting the export"
import json, sys
d = json.load(open(sys.argv[1]))
def save(name, f):
    e = json.loads(json.dumps(d))
    for p in e['profiles']:
        f(p)
    json.dump(e, open(sys.argv[2] + '/' + name, 'w'))
save('old.json', lambda p: (p.pop('pcolThread', None), p.pop('pcolThreads', None)))
def bad_index(p):
    if 'pcolThreads' in p: p['pcolThreads'][5] = 99
def bad_labels(p):
    if 'pcolThread' in p: p['pcolThread'] = {'tid': {'x': 1}}
def short(p):
    if 'pcolThreads' in p: p['pcolThreads'].pop()
save('badidx.json', bad_index)
save('badlab.json', bad_labels)
save('short.json', short)
PY
for g in old badidx badlab short; do
  $PCOL top "$tmp/$g.json" --format tsv > "$tmp/top" || fail "$g: top"
  $PCOL top "$tmp/a.json" --format tsv | diff - "$tmp/top" > /dev/null || fail "$g: top differs from the export's"
  [ -z "$($PCOL tags "$tmp/$g.json" 2>&1 | grep -E '^ *(tid|comm|pid): Total')" ] || fail "$g: thread labels read: $($PCOL tags "$tmp/$g.json" | head -5)"
  $PCOL info "$tmp/$g.json" | grep -q 'samples: *400, at ' || fail "$g: the samples' times lost: $($PCOL info "$tmp/$g.json" | grep samples)"
done
# a profile named with a '/' (review 22 F5: "grpc-worker/1" became "1"):
# the speedscope profile and the Firefox thread keep the whole name; only
# the directory of the input's path goes
mkdir -p "$tmp/dir"
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"}]},"profiles":[%s,%s]}' \
  '{"type":"sampled","name":"grpc-worker/1","unit":"none","startValue":0,"endValue":1,"samples":[[0]],"weights":[1]}' \
  '{"type":"sampled","name":"grpc-worker/2","unit":"none","startValue":0,"endValue":1,"samples":[[0]],"weights":[2]}' >"$tmp/dir/slash.json"
$PCOL unpack "$tmp/dir/slash.json" --to speedscope -o "$tmp/slash-ss.json" || fail "unpack slash.json --to speedscope"
python3 -c 'import json,sys; n=[p["name"] for p in json.load(open(sys.argv[1]))["profiles"]]; sys.exit(0 if n == ["slash.json: grpc-worker/1: samples", "slash.json: grpc-worker/2: samples"] else "speedscope profile names %r" % n)' "$tmp/slash-ss.json" || fail "speedscope export's profile names"
$PCOL unpack "$tmp/dir/slash.json" --to firefox -o "$tmp/slash-ff.json" || fail "unpack slash.json --to firefox"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=sorted(t.get("processName", "") + "|" + t["name"] for t in d["threads"]); sys.exit(0 if all("slash.json: grpc-worker/" in x and "dir/" not in x for x in n) and len(n) == 2 else "firefox threads %r" % n)' "$tmp/slash-ff.json" || fail "firefox export's thread names"
# a pprof in a directory whose name holds ": " (rd17a F6: the profile was
# named "x: y/prof.pb"): a pprof source's uri is its path, no "FILE: NAME"
mkdir -p "$tmp/x: y"
python3 tests/support/pprofgen.py typed "$tmp/x: y/prof.pb" cpu:nanoseconds "2,1:5" || fail "pprofgen typed"
$PCOL unpack "$tmp/x: y/prof.pb" --to speedscope -o "$tmp/colon-ss.json" || fail "unpack x: y/prof.pb --to speedscope"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=[d["name"]]+[p["name"] for p in d["profiles"]]; sys.exit(0 if n == ["prof.pb", "prof.pb: samples", "prof.pb: cpu"] else "speedscope names %r" % n)' "$tmp/colon-ss.json" || fail "speedscope export's names of x: y/prof.pb"
$PCOL unpack "$tmp/x: y/prof.pb" --to firefox -o "$tmp/colon-ff.json" || fail "unpack x: y/prof.pb --to firefox"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=[t.get("processName", "") + "|" + t["name"] for t in d["threads"]]; sys.exit(0 if n and all(x == "prof.pb|prof.pb" for x in n) else "firefox threads %r" % n)' "$tmp/colon-ff.json" || fail "firefox export's thread names of x: y/prof.pb"
# a profile of a many-profile file in such a directory: the name splits
# where the importer joined it (meta pcol.uri_file_len), in a merge too
cp "$tmp/dir/slash.json" "$tmp/x: y/slash.json"
$PCOL merge "$tmp/x: y/slash.json" -o "$tmp/colon.pcol" || fail "merge x: y/slash.json"
for f in "$tmp/x: y/slash.json" "$tmp/colon.pcol"; do
  $PCOL unpack "$f" --to speedscope -o "$tmp/colon2-ss.json" || fail "unpack $f --to speedscope"
  python3 -c 'import json,sys; n=[p["name"] for p in json.load(open(sys.argv[1]))["profiles"]]; sys.exit(0 if n == ["slash.json: grpc-worker/1: samples", "slash.json: grpc-worker/2: samples"] else "speedscope profile names %r" % n)' "$tmp/colon2-ss.json" || fail "speedscope export's profile names of $f"
  $PCOL unpack "$f" --to firefox -o "$tmp/colon2-ff.json" || fail "unpack $f --to firefox"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=sorted(t["name"] for t in d["threads"]); sys.exit(0 if n == ["slash.json: grpc-worker/1", "slash.json: grpc-worker/2"] else "firefox threads %r" % n)' "$tmp/colon2-ff.json" || fail "firefox export's thread names of $f"
done
# a profile's name holding \u0000 is read whole, as speedscope keeps it
# (its source's name; it was refused: tests/contract/t_contract.py's nul
# check), and so is a frame's (review 24 F1, tests/contract/writers.tsv); a
# unit holding one is refused naming the byte, not cut at the NUL
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"f\\u0000g"}]},"profiles":[{"type":"sampled","name":"thr\\u0000ead","unit":"none","startValue":0,"endValue":1,"samples":[[0]],"weights":[1]}]}' >"$tmp/nul.speedscope.json"
$PCOL info "$tmp/nul.speedscope.json" --format json >"$tmp/out" 2>"$tmp/err" || fail "a profile name holding \\u0000: $(cat "$tmp/err")"
grep -q '"source_uri":".*nul.speedscope.json: thr\\u0000ead"' "$tmp/out" || fail "a profile name holding \\u0000 not read whole: $(cat "$tmp/out")"
$PCOL top "$tmp/nul.speedscope.json" --format json | grep -q '"f\\u0000g"' || fail "a frame name holding \\u0000 not read with its NUL"
sed 's/"unit":"none"/"unit":"no\\u0000ne"/' "$tmp/nul.speedscope.json" >"$tmp/nul2.speedscope.json"
$PCOL top "$tmp/nul2.speedscope.json" >/dev/null 2>"$tmp/err" && fail "a unit holding \\u0000 read"
grep -q 'nul2.speedscope.json: byte [0-9]*: a profile.s type or unit holds \\u0000' "$tmp/err" || fail "\\u0000 in a unit: $(cat "$tmp/err")"
echo "t_speedscope_threads: ok"
