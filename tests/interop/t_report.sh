#!/usr/bin/env bash
# `pcol report` pages in a real browser (issue 16): headless Chromium,
# driven through the DevTools protocol by report_check.js (client:
# chrome-remote-interface from npm, installed into $BUILD/npm on first use),
# opens reports of an Rprof profile with memory, a coalesced profile with
# long samples, a Go CPU profile with labels, a merged file and a diff; it
# checks there are no console errors, that the top table equals `pcol top`
# (whole profile, a chosen value, a chosen source, focus/ignore typed in, and
# a brushed range that cuts a long sample), flame graph zoom and search (its
# matched share also under a focus and a tag: pcol top's cum%), the
# call tree opened by keyboard and the inverted tree (pcol fold), a clicked
# function's callers/callees (pcol peek) and source (pcol list), the --diff
# table (pcol diff --absolute), its call graph's node and edge colours
# (pcol top / pcol graph on the base) and its flame graph's colours with a
# frame hidden (pcol flame --diff --hide), the page's second part (Rprof
# memory) read after every view is drawn.  Screenshots are kept in
# $BUILD/artifacts/report-*.png.  Exit 77 (skip) without Chromium, node or
# the npm client.
set -u
BUILD=${BUILD:-build}
T=t_report
. "$(dirname "$0")/report_env.sh"
NPM_DIR=$(cd "$BUILD" && pwd)/npm
if [ ! -d "$NPM_DIR/node_modules/chrome-remote-interface" ]; then
  command -v npm >/dev/null || skip "npm not installed (needed for chrome-remote-interface)"
  mkdir -p "$NPM_DIR"
  timeout 300 npm install --no-audit --no-fund --silent --prefix "$NPM_DIR" chrome-remote-interface@0.34 >/dev/null 2>&1 ||
    skip "cannot install chrome-remote-interface from npm"
fi
mkdir -p "$BUILD/artifacts"
ART=$(cd "$BUILD/artifacts" && pwd)

cases=""
add() { # name input html [json fields]
  cases="$cases${cases:+,}{\"name\":\"$1\",\"input\":\"$2\",\"html\":\"$3\"${4:+,$4}}"
}
# the project's own profile, coalesced: long samples (the README picture)
"$PCOL" pack examples/demo.out --coalesce -o "$tmp/demo.pcol" || fail "pack demo"
# its source file (demo_code.R, which the profile names relatively), with
# markup in it: the source pane shows it as text
mkdir -p "$tmp/src"
awk 'BEGIN { for (i = 1; i <= 30; i++) printf "line_%d <- function(x) \"</script><img src=x onerror=alert(3)>\" & x < %d\n", i, i }' > "$tmp/src/demo_code.R"
"$PCOL" report "$tmp/demo.pcol" -o "$tmp/demo.html" --source-path "$tmp/src" --title "examples/demo.out (pcol pack --coalesce)" || fail "report demo"
add demo "$tmp/demo.pcol" "$tmp/demo.html" "\"search\":\"^(fib|sum)\$\",\"hide\":\"^rnorm\$\",\"brush\":true,\"shot\":true,\"readme\":[120000000,310000000],\"srcpath\":\"$tmp/src\""
# the same profile naming its file by another machine's path under "proj",
# the source path's base name (pcol list and pprof -source_path print it
# trimmed, demo_code.R): the pane still matches the samples' lines
mkdir -p "$tmp/proj" && cp "$tmp/src/demo_code.R" "$tmp/proj/"
sed 's|^#File 1: demo_code.R$|#File 1: /remote/build/proj/demo_code.R|' examples/demo.out >"$tmp/remote.out"
"$PCOL" pack "$tmp/remote.out" --coalesce -o "$tmp/remote.pcol" || fail "pack remote"
"$PCOL" report "$tmp/remote.pcol" -o "$tmp/remote.html" --source-path "$tmp/proj" || fail "report remote"
add remote-path "$tmp/remote.pcol" "$tmp/remote.html" "\"brush\":true,\"srcpath\":\"$tmp/proj\""
if [ -f "$TD/rprof/r-prof-profile__memory.out" ]; then
  "$PCOL" pack "$TD/rprof/r-prof-profile__memory.out" -o "$tmp/mem.pcol" || fail "pack memory"
  "$PCOL" report "$tmp/mem.pcol" -o "$tmp/mem.html" || fail "report memory"
  # the header's length: summaryRprof's sampling.time when R is here
  rlen=$(command -v Rscript >/dev/null && Rscript -e "cat(summaryRprof('$TD/rprof/r-prof-profile__memory.out', memory = 'both')\$sampling.time)" 2>/dev/null)
  add rprof-memory "$tmp/mem.pcol" "$tmp/mem.html" "\"refine\":true,\"value\":\"rprof.alloc\",\"search\":\"^as\\\\.data\"${rlen:+,\"rlen\":$rlen}"
fi
if [ -f "$TD/rprof/aprof__lotka1_naiveL.out" ]; then
  "$PCOL" pack "$TD/rprof/aprof__lotka1_naiveL.out" --coalesce -o "$tmp/long.pcol" || fail "pack coalesced"
  "$PCOL" report "$tmp/long.pcol" -o "$tmp/long.html" || fail "report coalesced"
  add coalesced "$tmp/long.pcol" "$tmp/long.html" '"brush":true,"search":"anyDuplicated"'
fi
if [ -f "$TD/pprof/go-cpu-string-labels.pb.gz" ]; then
  "$PCOL" report "$TD/pprof/go-cpu-string-labels.pb.gz" -o "$tmp/go.html" || fail "report go"
  # the header's duration: go tool pprof's Duration line when go is here
  dur=$(command -v go >/dev/null && go tool pprof -top "$TD/pprof/go-cpu-string-labels.pb.gz" 2>/dev/null | sed -n 's/^Duration: \([0-9.]*m\{0,1\}s\),.*/\1/p')
  add go-labels "$TD/pprof/go-cpu-string-labels.pb.gz" "$tmp/go.html" "\"value\":\"samples\",\"search\":\"slowFunction\",\"tag\":\"function=^fast\$\",\"tagSearch\":\"asyncPreempt\"${dur:+,\"dur\":\"$dur\"}"
  if [ -f "$tmp/long.pcol" ]; then
    "$PCOL" merge "$tmp/long.pcol" "$TD/pprof/go-cpu-string-labels.pb.gz" -o "$tmp/merged.pcol" || fail "merge"
    "$PCOL" report "$tmp/merged.pcol" -o "$tmp/merged.html" || fail "report merged"
    add merged "$tmp/merged.pcol" "$tmp/merged.html" '"source":1,"brush":true,"search":"^is\\."'
  fi
fi
# the base: the demo's first half of samples, twice (the new profile is the
# whole demo): functions of the first half shrink, those of the second grow,
# so the call graph's colours go both ways
{ head -2 examples/demo.out; for k in 1 2; do sed -n '3,21p' examples/demo.out; done; } > "$tmp/base.out"
"$PCOL" pack "$tmp/base.out" -o "$tmp/base.pcol" || fail "pack base"
"$PCOL" report "$tmp/demo.pcol" --diff "$tmp/base.pcol" -o "$tmp/diff.html" || fail "report --diff"
add diff "$tmp/demo.pcol" "$tmp/diff.html" "\"brush\":true,\"base\":\"$tmp/base.pcol\",\"diffHide\":\"^stats::filter\$\""
if [ -f "$TD/pprof/go-cpu-inline-small.pb.gz" ]; then
  "$PCOL" report "$TD/pprof/go-cpu-inline-small.pb.gz" -o "$tmp/inline.html" || fail "report inline"
  add go-inline "$TD/pprof/go-cpu-inline-small.pb.gz" "$tmp/inline.html" '"focus":"busyLoop","ignore":"mapiter","focusSearch":"^main\\.busyLoop$","hide":"^runtime\\.","show":"^main\\.","refine":true'
  # --divide-by 3, then 0.5 and 1e9 typed into the page's box (the views' text against the CLI's)
  "$PCOL" report "$TD/pprof/go-cpu-inline-small.pb.gz" --divide-by 3 -o "$tmp/divided.html" || fail "report --divide-by"
  add divided "$TD/pprof/go-cpu-inline-small.pb.gz" "$tmp/divided.html" '"divide":["3","0.5","1e9"]'
fi
# negative values (a delta heap profile): the table's header sorts tie on
# |cum| with other |flat| (no row click: its long names)
if [ -f "$TD/pprof/go-heap-delta-negative-values.pb.gz" ]; then
  "$PCOL" report "$TD/pprof/go-heap-delta-negative-values.pb.gz" -o "$tmp/neg.html" || fail "report negative"
  add negative "$TD/pprof/go-heap-delta-negative-values.pb.gz" "$tmp/neg.html" '"sorts":true,"noclick":true'
fi
# every string of the profile (names, files, types, units, labels, the
# source's name) is markup; the page must show it as text (issue 28)
# (no '/': --value TYPE/UNIT could not name such a type for the top check)
python3 "$here/../support/pprofgen.py" strings "$tmp/hostile.pb" 'x"><img src=x onerror=alert(1)><script>alert(1)<g a="&<' || fail "pprofgen.py"
cp "$tmp/hostile.pb" "$tmp/h\"><script>alert(2)<.pb"
"$PCOL" pack "$tmp/h\"><script>alert(2)<.pb" -o "$tmp/hostile.pcol" || fail "pack hostile"
"$PCOL" report "$tmp/hostile.pcol" -o "$tmp/hostile.html" || fail "report hostile"
add hostile "$tmp/hostile.pcol" "$tmp/hostile.html" '"hostile":"<img src=x onerror=alert(1)><script>alert(1)<g"'

# point samples on the stack chart (doc/report.md, "Stack chart"): a V8
# sample lasts until the next (as DevTools draws it), a perf script sample
# until the next but at most its track's median gap; zoomed to 3% of the
# profile the chart is covered, not a pixel a sample with gaps between
printf '%s\n' 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }' \
  'for (let i = 0; i < 60; i++) fib(22 + i % 3);' > "$tmp/w.js"
# the time a speedscope export's timelines (sys.argv[1]: its JSON) have a
# frame open, ns: per thread, {"THREAD": ns} of the timelines named
# "...: timeline (THREAD)", or with --total the sum over all of them
cat > "$tmp/spans.py" <<'PY'
import json, re, sys
d, out, total = json.load(open(sys.argv[1])), {}, 0
for p in d["profiles"]:
    if p["type"] != "evented":
        continue
    depth, since, cov = 0, 0, 0
    for e in p["events"]:
        if e["type"] == "O":
            if depth == 0: since = e["at"]
            depth += 1
        else:
            depth -= 1
            if depth == 0: cov += e["at"] - since
    total += cov
    m = re.search(r": timeline \((.*)\)$", p["name"])
    if m:
        out[m[1]] = cov
print(total if sys.argv[2:] == ["--total"] else json.dumps(out))
PY
# a V8 profile's last sample measured no time (V8's wall 0: no sample after
# it): the stack chart draws it for none, as the speedscope export's
# timeline and speedscope's own reading do and as the table's wall counts
# it, so its time on the chart is the export's timeline (before, it drew
# the last sample for the mean gap: the hand-made profile's 10 samples 200
# us apart covered 2 ms, its wall 1.8 ms; lib/core/lasts.h
# pcol_lasts_measured_none)
if (cd "$tmp" && node --cpu-prof --cpu-prof-name=node.cpuprofile w.js) && [ -f "$tmp/node.cpuprofile" ]; then
  "$PCOL" report "$tmp/node.cpuprofile" -o "$tmp/v8.html" || fail "report v8"
  "$PCOL" unpack "$tmp/node.cpuprofile" --to speedscope --timeline -o "$tmp/v8-ss.json" || fail "v8 to speedscope"
  tot=$(python3 "$tmp/spans.py" "$tmp/v8-ss.json" --total) || fail "v8 timeline"
  add v8 "$tmp/node.cpuprofile" "$tmp/v8.html" "\"cover\":0.95,\"spantotal\":$tot"
fi
printf '%s\n' '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},' \
  '{"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":0,"columnNumber":0},"children":[4]},' \
  '{"id":3,"callFrame":{"functionName":"g","url":"a.js","lineNumber":5,"columnNumber":0}},' \
  '{"id":4,"callFrame":{"functionName":"h","url":"b.js","lineNumber":2,"columnNumber":0}}],' \
  '"startTime":1000,"endTime":3000,"samples":[2,4,4,3,2,4,3,3,4,2],' \
  '"timeDeltas":[0,200,200,200,200,200,200,200,200,200]}' > "$tmp/last.cpuprofile"
"$PCOL" report "$tmp/last.cpuprofile" -o "$tmp/v8-last.html" || fail "report v8 last"
"$PCOL" unpack "$tmp/last.cpuprofile" --to speedscope --timeline -o "$tmp/v8-last-ss.json" || fail "v8 last to speedscope"
tot=$(python3 "$tmp/spans.py" "$tmp/v8-last-ss.json" --total) || fail "v8 last timeline"
[ "$tot" = 1800000 ] || fail "the hand-made V8 profile's timeline covers $tot ns, not its wall 1800000"
add v8-last "$tmp/last.cpuprofile" "$tmp/v8-last.html" "\"spantotal\":$tot"
python3 "$here/../support/gen_perf_script.py" "$tmp/perf.txt" "$tmp/perf.truth" --style default \
  --events 1 --count-truth "$tmp/perf.count" --samples 400 --seed 12 || fail "gen_perf_script.py"
# (its Java names' ';' would be '_' in pcol fold, which the tree check reads)
sed 's/Foo;::/Foo::/g' "$tmp/perf.txt" > "$tmp/perf-script.txt"
"$PCOL" report "$tmp/perf-script.txt" -o "$tmp/perf.html" || fail "report perf"
# the stack chart's spans are the speedscope export's (THE span rule,
# lib/core/lasts.h, computed once in C): per thread, the time its samples
# with a stack cover on the chart = the time the export's timeline of that
# thread has a frame open
"$PCOL" unpack "$tmp/perf-script.txt" --to speedscope --timeline -o "$tmp/perf-ss.json" || fail "perf to speedscope"
spans=$(python3 "$tmp/spans.py" "$tmp/perf-ss.json") || fail "perf timelines"
add perf "$tmp/perf-script.txt" "$tmp/perf.html" "\"cover\":0.5,\"spans\":$spans"
# so with samples of their own length (cpu-clock's 250 us period) closer
# together than that on one thread (100 us): each lasts its period, laid
# after the one before it (THE placement rule), as in the speedscope export
python3 - "$tmp/clip.txt" <<'PY'
import sys
rows = []
for k, (tid, gap, n) in enumerate([(204, 100, 30), (205, 300, 20)]):
    rows += [(1000000 + k + gap * i, tid, ['spin', 'main'] if i % 4 < 2 else ['hash', 'main']) for i in range(n)]
with open(sys.argv[1], 'w') as o:
    for t, tid, st in sorted(rows):
        o.write('app 200/%d [000] %d.%06d: 250000 cpu-clock: \n' % (tid, t // 1000000, t % 1000000))
        o.write(''.join('\t401000 %s (/bin/app)\n' % f for f in st) + '\n')
PY
"$PCOL" report "$tmp/clip.txt" -o "$tmp/clip.html" || fail "report clip"
"$PCOL" unpack "$tmp/clip.txt" --to speedscope --timeline -o "$tmp/perf-ss.json" || fail "clip to speedscope"
spans=$(python3 "$tmp/spans.py" "$tmp/perf-ss.json") || fail "clip timelines"
add perf-clip "$tmp/clip.txt" "$tmp/clip.html" "\"spans\":$spans"

# a profile ending in a point sample (perf script text made here: 10
# samples 1 ms apart, then one 1 s later, its leaf end_leaf): the stack
# chart of the whole profile draws it in its last column (its end is the
# profile's last instant; the rule was time < end, and it was drawn nowhere),
# a range ending at it does not ([from, to), the selection's rule)
python3 - "$tmp/lastpoint.txt" <<'PY'
import sys
with open(sys.argv[1], 'w') as o:
    for i, t in enumerate([1000000 + 1000 * k for k in range(10)] + [2000000]):
        o.write('app 200/200 [000] %d.%06d: 250000 cpu-clock: \n' % (t // 1000000, t % 1000000))
        st = ['end_leaf' if i == 10 else 'work', 'main']
        o.write(''.join('\t%x %s (/bin/app)\n' % (0x401000 + 16 * j, f) for j, f in enumerate(st)) + '\n')
PY
"$PCOL" report "$tmp/lastpoint.txt" -o "$tmp/lastpoint.html" || fail "report lastpoint"
add lastpoint "$tmp/lastpoint.txt" "$tmp/lastpoint.html" '"lastpoint":"end_leaf"'

# two threads of one name (the thread rule, lib/core/lasts.c): a Firefox
# profile's two "Worker" threads (tids 1 and 2) are two tracks of their own
# samples, named apart by their tids; the tracks the page draws are the
# profile's threads as this script reads them from the JSON
python3 "$here/../support/firefox_gen.py" v48 "$tmp/twins.json" >/dev/null || fail "firefox_gen.py"
twins=$(python3 - "$tmp/twins.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = []
for t in d["threads"]:
    t["name"] = "Worker"
    s = t["samples"]
    ts, acc = [], 0.0
    for x in s["timeDeltas"]:
        acc += x
        ts.append(round(acc * 1e6))
    want.append({"name": t["name"], "tid": t["tid"], "times": ts})
json.dump(d, open(sys.argv[1], "w"))
print(json.dumps(want))
PY
) || fail "twins"
"$PCOL" report "$tmp/twins.json" -o "$tmp/twins.html" || fail "report twins"
add twins "$tmp/twins.json" "$tmp/twins.html" "\"threads\":$twins"

# a stack deeper than the stack chart once drew (review15 F2: 40 frames from
# the root, unsaid): perf script text of 63-frame stacks, main; dive x 60;
# hot_leaf, on one thread; the chart draws every frame, the leaf on row 63
python3 - "$tmp/deep.txt" <<'PY'
import sys
with open(sys.argv[1], 'w') as o:
    for i in range(200):
        t = 1000000 + 1000 * i
        o.write('deep 300/300 [000] %d.%06d: 1000000 cpu-clock: \n' % (t // 1000000, t % 1000000))
        st = ['hot_leaf'] + ['dive'] * 60 + ['main', '__libc_start_call_main']
        o.write(''.join('\t%x %s (/bin/deep)\n' % (0x401000 + 16 * k, f) for k, f in enumerate(st)) + '\n')
PY
"$PCOL" report "$tmp/deep.txt" -o "$tmp/deep.html" || fail "report deep"
add deep "$tmp/deep.txt" "$tmp/deep.html" '"deep":[{"leaf":"hot_leaf","depth":63}]'
# a JFR recording (tests/support/gen_jfr.py) whose first stack is 1,000
# frames deep: past the chart's bound (doc/report.md), its leaf still drawn
# and the cut said; and its tracks (a source per event type, a track per
# thread: "jdk.ObjectAllocationSample main thread_id 1", ...) share a long
# prefix: each drawn label keeps its thread (review15 F5), its tooltip the
# whole name
python3 "$here/../support/gen_jfr.py" "$tmp/deep.jfr" --samples 40 --deep 1000 || fail "gen_jfr.py --deep"
"$PCOL" report "$tmp/deep.jfr" -o "$tmp/deepjfr.html" || fail "report deep jfr"
jdeep=$("$PCOL" fold "$tmp/deep.jfr" | awk '{ n = split($1, f, ";"); if (n > d) { d = n; l = f[n] } } END { printf "{\"leaf\":\"%s\",\"depth\":%d,\"cut\":true}", l, d }')
jthr=$("$PCOL" top "$tmp/deep.jfr" --by label:thread_name --format json 2>/dev/null | python3 -c 'import json,sys; print(json.dumps(sorted({r["name"] for r in json.load(sys.stdin)["rows"]})))') || fail "threads of deep.jfr"
add deep-jfr "$tmp/deep.jfr" "$tmp/deepjfr.html" "\"deep\":[$jdeep],\"labels\":$jthr"
# a flame graph 5,002 frames deep (gen_jfr.py --deep 5000): at 17 pixels a
# frame its canvas passed Chromium's 32,767-pixel side and nothing was
# drawn; now at most FL.ROWS rows (doc/report.md), its leaf drawn on the
# top row, findable by hover and search, the cut said in the note
python3 "$here/../support/gen_jfr.py" "$tmp/deeper.jfr" --samples 40 --deep 5000 || fail "gen_jfr.py --deep 5000"
"$PCOL" report "$tmp/deeper.jfr" -o "$tmp/deeperjfr.html" || fail "report deeper jfr"
fdeep=$("$PCOL" fold "$tmp/deeper.jfr" | awk '{ n = split($1, f, ";"); if (n > d) { d = n; l = f[n] } } END { printf "{\"leaf\":\"%s\",\"depth\":%d}", l, d }')
add deeper-jfr "$tmp/deeper.jfr" "$tmp/deeperjfr.html" "\"flamedeep\":$fdeep"

# a profile of 3,000 threads (perf script text made here): a track each
# made the page 114,000 pixels tall (38 a timeline track, 12 rows a stack
# chart track, no cap); now the 64 busiest by the page's value are drawn,
# the note says how many are left out and lists them, and the "tracks" box
# (a regex on the names) draws any other.  Threads worker-0..79 have 20..99
# samples, the 2,920 others one: the busiest 64 are worker-16..79, as `pcol
# tags` adds up each comm (each thread its own comm).  The stack chart's
# hover on this page is checked against a linear search of its boxes.
python3 - "$tmp/threads.txt" <<'PY'
import sys
rows = []
for k in range(3000):
    n = 20 + k if k < 80 else 1
    rows += [(1000000 + 37 * k + 400 * i, 10000 + k, k, i) for i in range(n)]
with open(sys.argv[1], 'w') as o:
    for t, tid, k, i in sorted(rows):
        o.write('worker-%d 200/%d [000] %d.%06d: 250000 cpu-clock: \n' % (k, tid, t // 1000000, t % 1000000))
        st = ['leaf_%d' % (i % 3)] + ['mid_%d' % (i % 2)] * (1 + i % 3) + ['main']
        o.write(''.join('\t%x %s (/bin/app)\n' % (0x401000 + 16 * j, f) for j, f in enumerate(st)) + '\n')
PY
"$PCOL" report "$tmp/threads.txt" -o "$tmp/threads.html" || fail "report threads"
busy=$("$PCOL" tags "$tmp/threads.txt" | awk '/^ *comm:/ { on = 1; next } /^ *[a-z]+:/ { on = 0 } on && NF { print $NF }' | head -64 |
  python3 -c 'import json, sys; print(json.dumps([l.strip() for l in sys.stdin]))') || fail "busy threads"
[ "$(echo "$busy" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 64 ] || fail "pcol tags gave no 64 comms: $busy"
add threads "$tmp/threads.txt" "$tmp/threads.html" "\"manythreads\":{\"all\":3000,\"drawn\":64,\"busy\":$busy,\"idle\":\"worker-2000\"}"
# a flame graph cut in depth (past FL.ROWS rows) with branches that end in
# the depths cut (folded text made here): main;rec x 5000;deep_leaf, a
# branch main;branch;step x 700;shallow_end (its own grey box) and
# main;rec x 600;mid_end (inside the deep chain's grey box).  Searching
# for shallow_end or mid_end counted it but drew nothing in the search
# colour, and the grey box did not say what it hides: now the box holding a
# match is drawn in the search colour and its hover lists the stacks that
# end under it
python3 - "$tmp/cut.folded" <<'PY'
import sys
with open(sys.argv[1], 'w') as o:
    o.write('main;' + 'rec;' * 5000 + 'deep_leaf 10\n')
    o.write('main;branch;' + 'step;' * 700 + 'shallow_end 8\n')
    o.write('main;' + 'rec;' * 600 + 'mid_end 5\n')
PY
"$PCOL" report "$tmp/cut.folded" -o "$tmp/cut.html" || fail "report cut"
add flame-cut "$tmp/cut.folded" "$tmp/cut.html" '"flamecut":[{"leaf":"shallow_end","depth":703,"under":"branch"},{"leaf":"mid_end","depth":602,"under":"rec"}]'

printf '{"pcol":"%s","browser":"%s","artifacts":"%s","tmp":"%s","cases":[%s]}\n' \
  "$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")" "$BROWSER" "$ART" "$tmp" "$cases" > "$tmp/config.json"
NODE_PATH="$NPM_DIR/node_modules" timeout 300 node "$here/report_check.js" "$tmp/config.json" || fail "browser checks failed"
echo "t_report: screenshots: $ART/report-*.png" >&2
exit 0
