#!/usr/bin/env bash
# `pcol unpack --to v8` (a V8 .cpuprofile) judged by speedscope's own
# importer (npm speedscope, speedscope_any_judge.cjs) and read back by
# pcol's V8 importer, for a pprof CPU profile with inline frames, one with
# unsymbolized locations, an Rprof file, a perf script file (--value
# cpu-clock), a Tachyon file (--value wall) and V8 profiles node makes here
# (a round trip: the same timeDeltas, unless node wrote a negative one, and
# the same stack at every sample).
#
# - speedscope: per function, its self and total weights (us) equal those of
#   `pcol fold IN --value T` / 1000 exactly (judge_compare.py).  The export
#   rounds the running sum of the samples' lengths to whole microseconds, so
#   this is exact for inputs whose values are whole microseconds, which all
#   of these are (pprof's 10 ms periods, Rprof's intervals, perf's and
#   Tachyon's microsecond clocks, V8's own microseconds); each input is
#   checked to be so first.  speedscope hides (idle) and puts (program) and
#   (garbage collector) on top of the previous sample's stack, so for the
#   V8 inputs self weights are compared on the file as written and totals
#   on a copy with those two renamed (as t_import_judged.sh does).
# - read back: `pcol top OUT --value wall` equals `pcol top IN --value T`
#   (per function flat and cum, in ns).
# - refused (exit 1; 2 for a --value that is no time): a source whose default value is no time (collapsed stacks:
#   samples), two sources, negative values (a --base difference).
# Env: PCOL, BUILD, PCOL_NPM_DIR.  Exit 0 pass, 1 fail, 77 skip (no node/npm).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/speedscope_env.sh"
T=../shared/testdata
fail=0 n=0
bad() { echo "FAIL $*"; fail=1; }

# ------------------------------------------------------------- inputs
. "$HERE/v8_inputs.sh"
v8_inputs "$tmp" || bad "node --cpu-prof or gen_perf_script.py"
# name input value thread (tid; -: the whole input: a V8 profile holds one
# thread, and the perf script's six are refused, below)
cases="go-inline $T/pprof/go-cpu-inline-small.pb.gz cpu -
unsym $T/pprof/cpp-cpu-unsymbolized-mappings.pb.gz cpu -
rprof $T/rprof/proftools__Rprof-rec.out cpu -
perf $tmp/perf.txt cpu-clock 103
tachyon tests/fixtures/tachyon/recurse-opcodes-zstd.bin wall -
node $tmp/node.cpuprofile wall -"
lst=$tmp/list
: > "$lst"
while read -r name in value tid; do
  [ -f "$in" ] || { bad "$name: no input $in"; continue; }
  # the default (no --value) where it is a time, else --value
  va=(--value "$value")
  [ "$value" = cpu ] && va=()
  sel=()
  [ "$tid" = - ] || sel=(--tag "tid=$tid")
  if ! $PCOL unpack "$in" "${sel[@]}" --to v8 "${va[@]}" -o "$tmp/out-$name.cpuprofile" 2>"$tmp/err"; then
    bad "$name: unpack --to v8: $(cat "$tmp/err")"; continue
  fi
  $PCOL fold "$in" "${sel[@]}" --value "$value" > "$tmp/$name.fold" 2>/dev/null || bad "$name: fold"
  awk '{ v = $NF; if (v % 1000) { print "not whole us: " $0; exit 1 } }' "$tmp/$name.fold" > "$tmp/us" ||
    bad "$name: its values are not whole microseconds ($(cat "$tmp/us")): the exact comparison does not hold"
  sed 's/"(garbage collector)"/"garbage collector"/g; s/"(program)"/"program"/g' "$tmp/out-$name.cpuprofile" \
    > "$tmp/out-$name-r.cpuprofile"
  printf '%s\n%s\n' "$tmp/out-$name.cpuprofile" "$tmp/out-$name-r.cpuprofile" >> "$lst"
  echo "$name $in $value $tid" >> "$tmp/ok"
done <<< "$cases"
speedscope_import "$lst" "$tmp/rec.jsonl" >/dev/null || bad "speedscope judge did not run"

rec() { # file -> its judge record
  python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["file"] == sys.argv[2]: print(l, end="")' "$tmp/rec.jsonl" "$1" > "$tmp/rec"
}
while read -r name in value tid; do
  sel=()
  [ "$tid" = - ] || sel=(--tag "tid=$tid")
  # speedscope: self on the file, total on the renamed copy
  rec "$tmp/out-$name.cpuprofile"
  python3 "$HERE/judge_compare.py" "$tmp/$name.fold" "$tmp/rec" 1000 --skip '(idle)' \
    --self-only '(garbage collector)' --self-only '(program)' > "$tmp/out" ||
    bad "$name (speedscope self): $(head -c 1500 "$tmp/out")"
  sed 's/(garbage collector)/garbage collector/g; s/(program)/program/g' "$tmp/$name.fold" > "$tmp/$name-r.fold"
  rec "$tmp/out-$name-r.cpuprofile"
  python3 "$HERE/judge_compare.py" "$tmp/$name-r.fold" "$tmp/rec" 1000 --skip '(idle)' > "$tmp/out" ||
    bad "$name (speedscope total): $(head -c 1500 "$tmp/out")"
  # read back by pcol
  $PCOL top "$in" "${sel[@]}" --relative-percentages --value "$value" --format json 2>/dev/null > "$tmp/a.json" &&
    $PCOL top "$tmp/out-$name.cpuprofile" --value wall --format json > "$tmp/b.json" || { bad "$name: top"; continue; }
  python3 - "$tmp/a.json" "$tmp/b.json" > "$tmp/out" <<'PY' || bad "$name (read back): $(head -c 1500 "$tmp/out")"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rows = lambda d: sorted((r["name"], r["flat"], r["cum"]) for r in d["rows"])
if a["total"] != b["total"] or rows(a) != rows(b):
    print("total %s / %s" % (a["total"], b["total"]))
    for x, y in zip(rows(a), rows(b)):
        if x != y: print(x, y)
    sys.exit(1)
PY
  n=$((n + 1))
done < "$tmp/ok"

# ------------------------------------------------------------- round trip
python3 - "$tmp/node.cpuprofile" "$tmp/out-node.cpuprofile" > "$tmp/out" <<'PY' || bad "V8 round trip: $(head -c 1500 "$tmp/out")"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def stacks(d):
    byid = {n["id"]: n for n in d["nodes"]}
    par = {c: n["id"] for n in d["nodes"] for c in n.get("children", [])}
    def path(i):
        p = []
        while i in byid:
            cf = byid[i]["callFrame"]
            p.append((cf["url"], cf["lineNumber"], cf["columnNumber"]))
            i = par.get(i)
        return tuple(p)
    return [path(s) for s in d["samples"]]
# (node writes a negative delta now and then: time does not go back on
# import, speedscope's rule, so the deltas are then not the file's; each
# function's weight is, which the speedscope comparison above checks)
if min(a["timeDeltas"][1:]) >= 0 and a["timeDeltas"] != b["timeDeltas"]: sys.exit("timeDeltas differ")
if stacks(a) != stacks(b): sys.exit("the samples' stacks differ")
if a["startTime"] != b["startTime"]: sys.exit("startTime %s, was %s" % (b["startTime"], a["startTime"]))
PY

# ------------------------------------------------------------- selections
# --from/--to (a cut at 1.01 s and 2.995 s too), --focus, --ignore: the
# export read back has top's rows of the selection (top's total with a
# filter is pprof's, the unfiltered samples', so rows only)
R=$T/rprof/proftools__Rprof-rec.out
for sel in "--from 1 --to 3" "--from 1.01 --to 2.995" "--focus ^g$" "--ignore ^g$ --from 0.5"; do
  # shellcheck disable=SC2086
  $PCOL unpack "$R" -t v8 $sel -o "$tmp/sel.cpuprofile" 2>"$tmp/err" || { bad "$sel: $(cat "$tmp/err")"; continue; }
  # shellcheck disable=SC2086
  $PCOL top "$R" $sel --format json > "$tmp/a.json" && $PCOL top "$tmp/sel.cpuprofile" --value wall --format json > "$tmp/b.json" &&
    python3 -c 'import json, sys
rows = lambda p: sorted((r["name"], r["flat"], r["cum"]) for r in json.load(open(p))["rows"])
a, b = rows(sys.argv[1]), rows(sys.argv[2])
sys.exit(0 if a == b and a else "%s // %s" % (a, b))' "$tmp/a.json" "$tmp/b.json" 2>"$tmp/out" || bad "$sel: $(head -c 600 "$tmp/out")"
done

# ------------------------------------------------------------- refusals
expect() { # code message-part command...
  local code=$1 msg=$2; shift 2
  "$@" > /dev/null 2> "$tmp/err"
  local got=$?
  [ "$got" = "$code" ] && grep -qF -- "$msg" "$tmp/err" || bad "$* : exit $got, want $code with '$msg': $(head -c 600 "$tmp/err")"
}
printf 'main;a 3\nmain;b 2\n' > "$tmp/c.folded"
expect 1 "weighs its samples by samples/count by default, not a time" \
  $PCOL unpack "$tmp/c.folded" --to v8 -o "$tmp/x.cpuprofile"
expect 1 "tachyon" $PCOL unpack tests/fixtures/tachyon/recurse-opcodes-zstd.bin --to v8 -o "$tmp/x.cpuprofile"
expect 2 "--value samples/count is not a time" \
  $PCOL unpack "$tmp/node.cpuprofile" --to v8 --value samples -o "$tmp/x.cpuprofile"
$PCOL pack "$T/pprof/go-cpu-inline-small.pb.gz" "$T/rprof/proftools__Rprof-rec.out" -o "$tmp/two.pcol" 2>/dev/null ||
  bad "pack of two inputs"
expect 1 "2 sources have selected samples" $PCOL unpack "$tmp/two.pcol" --to v8 -o "$tmp/x.cpuprofile"
$PCOL unpack "$tmp/two.pcol" --source 2 --to v8 -o "$tmp/x.cpuprofile" 2>"$tmp/err" || bad "--source 2: $(cat "$tmp/err")"
# one source of several threads (doc/mappings.md §10.1): refused, each
# thread named with the --tag that selects it (before: its samples laid end
# to end, six threads' 946 ms of CPU one thread busy for as long)
expect 1 "source 1 has selected samples of 6 threads" $PCOL unpack "$tmp/perf.txt" --value cpu-clock --to v8 -o "$tmp/x.cpuprofile"
grep -qF "app tid 101 (--tag tid=101)" "$tmp/err" || bad "perf of 6 threads: tid 101 not listed: $(head -c 600 "$tmp/err")"
# (--diff-base: the base's samples negated, in a source of their own, beside
# the profile's: one thread cannot hold both, nor a sample a negative
# length, and --source N under a base is source N of each side, so the
# export is refused, with or without --source, saying what holds a
# difference (a pprof copy, which go tool pprof reads), not "choose one
# with --source N", which under a base chose two; before review 23 F2,
# --source 2 took the negated base alone and was refused for its negative cpu)
for s in "" "--source 1"; do
  # shellcheck disable=SC2086
  expect 1 "cannot be written so: write the difference with --to pprof or --to otlp" $PCOL unpack \
    "$T/pprof/go-cpu-inline-small.pb.gz" --diff-base "$T/pprof/go-cpu-large.pb.gz" $s --to v8 -o "$tmp/neg.cpuprofile"
  grep -q "choose one with --source" "$tmp/err" && bad "--diff-base $s --to v8: --source advised: $(head -c 600 "$tmp/err")"
  [ -e "$tmp/neg.cpuprofile" ] && bad "a refused export left its output"
done
[ -e "$tmp/x.cpuprofile" ] && [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["nodes"]) > 1)' "$tmp/x.cpuprofile")" = True ] ||
  bad "--source 2 wrote no nodes"
# a time 0 in every sample (dotnet-211's default lock_time): an empty
# profile and a note naming --value, not deltas all 0 with startTime =
# endTime, which speedscope's importer refuses; speedscope reads the empty one
if [ -f "$T/ext/pprof/dotnet-211.pb.gz" ]; then
  $PCOL unpack "$T/ext/pprof/dotnet-211.pb.gz" --to v8 -o "$tmp/z.cpuprofile" 2>"$tmp/err" || bad "all-0 time: $(cat "$tmp/err")"
  grep -qF "source 1: its lock_time/nanoseconds is 0 in every selected sample: no sample written" "$tmp/err" &&
    grep -qF -- "--value" "$tmp/err" || bad "all-0 time: no note: $(cat "$tmp/err")"
  python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["samples"] == [] and d["timeDeltas"] == [] and len(d["nodes"]) == 1 else "not empty")' \
    "$tmp/z.cpuprofile" || bad "all-0 time: the export is not the empty profile"
  echo "$tmp/z.cpuprofile" > "$tmp/zl"
  speedscope_import "$tmp/zl" "$tmp/zrec" >/dev/null 2>"$tmp/err" && ! grep -q '"error"' "$tmp/zrec" ||
    bad "all-0 time: speedscope refused the export: $(head -c 600 "$tmp/zrec") $(head -c 300 "$tmp/err")"
  $PCOL unpack "$T/ext/pprof/dotnet-211.pb.gz" --to v8 --value cpu -o "$tmp/z.cpuprofile" 2>"$tmp/err" &&
    ! grep -v ": not written: " "$tmp/err" | grep -q . || bad "--value cpu: $(cat "$tmp/err")"
fi
# gzip when -o ends in .gz
$PCOL unpack "$tmp/node.cpuprofile" --to v8 -o "$tmp/g.cpuprofile.gz" && gzip -dc "$tmp/g.cpuprofile.gz" | cmp -s - "$tmp/out-node.cpuprofile" ||
  bad "the .gz output is not the gzip of the text"

# ------------------------------------------------------------- hostile names
# quotes, backslashes, control bytes, invalid UTF-8 and U+2028 in function
# and file names (perf script text holds any bytes): strict JSON in UTF-8,
# each name as jstr.c writes it (invalid bytes read as Latin-1), read the
# same by speedscope
v8_hostile "$tmp/h.txt" app || bad "v8_hostile"
want=$V8_HOSTILE_WANT
if $PCOL unpack "$tmp/h.txt" --to v8 --value cpu-clock -o "$tmp/h.cpuprofile" 2>"$tmp/err"; then
  python3 - "$tmp/h.cpuprofile" "$want" > "$tmp/out" <<'PY' || bad "hostile names: $(head -c 1500 "$tmp/out")"
import json, sys
raw = open(sys.argv[1], 'rb').read()
d = json.loads(raw.decode('utf-8'))  # strict: valid UTF-8
if any(c < 0x20 and c != 0x0a for c in raw): sys.exit('a raw control byte')
got = sorted({n['callFrame']['functionName'] for n in d['nodes'] if not n.get('pcolIdleGap')} - {'(root)'})  # (the idle node: gaps)
want = sorted(json.loads(sys.argv[2]))
if got != want: sys.exit('names %r, want %r' % (got, want))
PY
  v8_hostile_judged "$tmp/h.cpuprofile" "$tmp" > "$tmp/o" 2>&1 || bad "speedscope read the hostile names otherwise: $(cat "$tmp/o")"
else
  bad "unpack of the hostile names: $(cat "$tmp/err")"
fi

# and a V8 file's hostile url (perf's have none): given back as it was
python3 - "$tmp/u.cpuprofile" <<'PY'
import json, sys
u = '/a "q" \\b\x01\x1f\u2028\u00ff/\U0001f600.js'
n = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": [2]},
     {"id": 2, "callFrame": {"functionName": "f", "scriptId": "1", "url": u, "lineNumber": 4, "columnNumber": 7}}]
json.dump({"nodes": n, "startTime": 5, "endTime": 30, "samples": [2, 2, 1], "timeDeltas": [1, 10, 10]},
          open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False)
PY
$PCOL unpack "$tmp/u.cpuprofile" --to v8 -o "$tmp/u2.cpuprofile" &&
  python3 - "$tmp/u.cpuprofile" "$tmp/u2.cpuprofile" <<'PY' || bad "a hostile url did not come back as it was"
import json, sys
a, b = (json.loads(open(p, "rb").read().decode("utf-8")) for p in sys.argv[1:3])
cf = lambda d: [dict(n["callFrame"], scriptId="0") for n in d["nodes"]]
assert cf(a) == cf(b), (cf(a), cf(b))
assert (a["samples"], a["timeDeltas"], a["startTime"]) == (b["samples"], b["timeDeltas"], b["startTime"]), b
PY

# ------------------------------------------------------------- budget
# --max-output: its exact size passes, a byte less is refused, no output
$PCOL unpack "$tmp/out-rprof.cpuprofile" --to v8 -o "$tmp/b0.cpuprofile" || bad "v8 -> v8"
sz=$(stat -c %s "$tmp/b0.cpuprofile")
$PCOL unpack "$tmp/out-rprof.cpuprofile" --to v8 --max-output "$sz" -o "$tmp/b1.cpuprofile" &&
  cmp -s "$tmp/b0.cpuprofile" "$tmp/b1.cpuprofile" || bad "--max-output $sz (its exact size) should write it all"
expect 3 "set by --max-output" $PCOL unpack "$tmp/out-rprof.cpuprofile" --to v8 --max-output $((sz - 1)) \
  -o "$tmp/b2.cpuprofile"
[ -e "$tmp/b2.cpuprofile" ] && bad "--max-output $((sz - 1)) left an output"

[ $fail = 0 ] && echo "t_v8_export: $n inputs agree with speedscope and read back"
exit $fail
