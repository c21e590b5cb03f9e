#!/usr/bin/env bash
# The exports that write threads keep their real ids (THE thread-id rule,
# pcol_thread_id in lib/core/lasts.c; review 17 F1).  An eBPF profiler's
# pprof (Parca's) names every thread "parca" and tells them apart by a
# STRING label thread_id of digits ("2764734"): before, the Firefox export
# wrote six "parca" threads of tid 0..5 and the Chrome trace export tid
# 1..6 in process 1, silently; the real ids were lost.  Now:
#   - firefox: tid = the digits' number; a thread whose id is no such
#     number (a name "w-3", a number past 2^53 that JavaScript holds
#     inexactly) gets a made-up tid, its name carries the label as the
#     report's timeline names it ("parca thread_id w-3"), and unpack notes
#     it; `pcol tags` of the copy has the ids as tid, with the input's totals;
#   - chrome: the same ids as tid, the pid label "4242" (a string of digits)
#     as pid, names as above;
#   - speedscope: its timelines' pcolThread keep the labels as stored;
#   - v8 (one thread, no id in the format): its refusal of several threads
#     suggests a --tag that selects one (thread_id, not thread_name='^parca$',
#     which selected all four), and that --tag works.
# Fixtures: tests/support/pprofgen.py threads ebpf, firefox_gen.py v70 with
# string tids; the real Parca profile of the test data when it is there.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_thread_ids: $*" >&2; exit 1; }
expect() { [ "$2" = "$3" ] || fail "$1:"$'\n'"$2"$'\nwant\n'"$3"; } # expect WHAT GOT WANT

python3 tests/support/pprofgen.py threads "$tmp/e.pb" ebpf || fail "pprofgen.py threads ebpf"
# KEY VALUE AMOUNT of each thread label of `pcol tags` (the keys asked)
tag_rows() {
  $PCOL tags "$1" | awk -v keys=" $2 " '
    /^ *[^ ]+: Total/ { k = $1; sub(/:$/, "", k); next }
    NF >= 3 && index(keys, " " k " ") { print k, $NF, $1 }'
}
# NAME|TID|PID of each thread of a Firefox file
ff_threads() {
  python3 -c '
import json, sys
for t in json.load(open(sys.argv[1]))["threads"]:
    print("%s|%s|%s" % (t["name"], t["tid"], t["pid"]))' "$1"
}

# the Chrome trace's threads as ff_threads
ct_threads() {
  python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["ph"] == "M" and e["name"] == "thread_name":
        print("%s|%s|%s" % (e["args"]["name"], e["tid"], e["pid"]))' "$1"
}
# trip TO OUT THREADS WANT NOTE: the export of e.pb to TO has the threads
# WANT (THREADS OUT prints them), says NOTE, and its copy's tid totals are
# the input's thread_id totals
trip() {
  $PCOL unpack "$tmp/e.pb" --to "$1" -o "$2" 2>"$tmp/err" || fail "$1 export: $(cat "$tmp/err")"
  expect "$1 threads (name|tid|pid)" "$($3 "$2")" "$4"
  # (a note in every format: one word for one kind, review h7)
  grep -F "$5" "$tmp/err" | grep -q '^pcol unpack: note: ' || fail "$1 export: no note of the made-up tids: $(cat "$tmp/err")"
  local want
  want=$(tag_rows "$tmp/e.pb" thread_id | grep -E ' (2764734|2756170) ' | sed 's/^thread_id /tid /')
  [ "$(echo "$want" | wc -l)" = 2 ] || fail "the input's tags: $want"
  expect "tags of the $1 copy" "$(tag_rows "$2" tid | grep -E ' (2764734|2756170) ')" "$want"
}

# 1. firefox
trip firefox "$tmp/e.json" ff_threads "parca|2764734|4242
parca|2756170|4242
parca thread_id w-3|2|4242
parca thread_id 9007199254740993|3|4242" \
  'e.pb: 2 threads have a tid or thread_id label that is no whole number up to 2^53 (the Firefox Profiler'"'"'s tid): their tid is made up, the label kept in their name ("parca thread_id w-3", ...)'
# a thread with a numeric id only gets no note
$PCOL unpack "$tmp/e.pb" --to firefox -o "$tmp/e2.json" --tag thread_id='^2764' 2>"$tmp/err" ||
  fail "firefox export --tag: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "firefox export of numeric ids noted: $(cat "$tmp/err")"
[ "$(ff_threads "$tmp/e2.json")" = "parca|2764734|4242" ] || fail "firefox --tag: $(ff_threads "$tmp/e2.json")"

# 1b. perfetto (rd11 F3): THE thread-id rule too, within Perfetto's int32;
# a label that is no such id names the thread, and is noted
$PCOL unpack "$tmp/e.pb" --to perfetto -o "$tmp/e.pf" 2>"$tmp/err" || fail "perfetto export: $(cat "$tmp/err")"
grep -F 'e.pb: 2 threads have a tid or thread_id label that is no whole number from 0 to 2^31 - 1 (Perfetto'"'"'s tid): their tid is made up, the label kept in their name ("parca thread_id w-3", ...)' "$tmp/err" |
  grep -q '^pcol unpack: note: ' ||
  fail "perfetto export: no note of the made-up tids: $(cat "$tmp/err")"
$PCOL tags "$tmp/e.pf" >"$tmp/pt" || fail "tags of the perfetto copy"
grep -q ': parca thread_id w-3$' "$tmp/pt" && grep -q ': parca thread_id 9007199254740993$' "$tmp/pt" ||
  fail "perfetto copy's thread names: $(cat "$tmp/pt")"
want=$(tag_rows "$tmp/e.pb" thread_id | grep -E ' (2764734|2756170) ' | sed 's/^thread_id /tid /')
expect "tags of the perfetto copy" "$(tag_rows "$tmp/e.pf" tid | grep -E ' (2764734|2756170) ')" "$want"

# 2. chrome: the ids as tid, the string pid "4242" as pid
trip chrome "$tmp/e.trace.json" ct_threads "parca|2764734|4242
parca|2756170|4242
parca thread_id w-3|1|4242
parca thread_id 9007199254740993|2|4242" \
  "e.pb: 2 threads have a tid or thread_id label that is no whole number up to 2^53 (a trace event's tid): their tid is made up, the label kept in their thread_name"

# 3. v8: the refusal's --tag selects one thread, and works
if $PCOL unpack "$tmp/e.pb" --to v8 -o "$tmp/e.cpuprofile" 2>"$tmp/err"; then fail "v8 export of 4 threads"; fi
grep -qF "parca thread_id 2764734 (--tag thread_id='^2764734\$')" "$tmp/err" || fail "v8 refusal: $(cat "$tmp/err")"
$PCOL unpack "$tmp/e.pb" --to v8 -o "$tmp/e.cpuprofile" --tag thread_id='^2764734$' 2>"$tmp/err" ||
  fail "v8 export --tag thread_id: $(cat "$tmp/err")"

# 4. a Firefox profile of string tids (merged profiles have them): the
# speedscope export's timelines keep them as stored, the Firefox export
# reads the digits as a number
python3 tests/support/firefox_gen.py v70 "$tmp/v70.json" >/dev/null || fail "firefox_gen.py v70"
python3 - "$tmp/v70.json" "$tmp/v70s.json" <<'PY' || fail "string tids"
import json, sys
d = json.load(open(sys.argv[1]))
for t, tid in zip(d["threads"], ["2764734", "w-3"]):
    t["name"], t["tid"], t["pid"] = "parca", tid, "4242"
json.dump(d, open(sys.argv[2], "w"))
PY
$PCOL unpack "$tmp/v70s.json" --to speedscope -o "$tmp/v.speedscope.json" || fail "speedscope export"
got=$(python3 -c '
import json, sys
for p in json.load(open(sys.argv[1]))["profiles"]:
    if "pcolThread" in p:
        print(p["name"], json.dumps(p["pcolThread"], sort_keys=True))' "$tmp/v.speedscope.json")
want='v70s.json: timeline (parca tid 2764734) {"pid": "4242", "thread_name": "parca", "tid": "2764734"}
v70s.json: timeline (parca tid w-3) {"pid": "4242", "thread_name": "parca", "tid": "w-3"}'
expect "speedscope timelines" "$got" "$want"
[ "$(tag_rows "$tmp/v.speedscope.json" tid)" = "$(tag_rows "$tmp/v70s.json" tid)" ] || fail "tags of the speedscope copy"
$PCOL unpack "$tmp/v70s.json" --to firefox -o "$tmp/v.json" 2>/dev/null || fail "firefox export of string tids"
got=$(ff_threads "$tmp/v.json")
[ "$got" = "parca|2764734|4242
parca tid w-3|1|4242" ] || fail "firefox threads of string tids: $got"

# 5. the real eBPF profile (Parca's): each of its six threads keeps its id
f=$TD/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz
if [ -f "$f" ]; then
  $PCOL unpack "$f" --to firefox -o "$tmp/p.json" 2>"$tmp/err" || fail "$f: $(cat "$tmp/err")"
  [ ! -s "$tmp/err" ] || fail "$f: noted: $(cat "$tmp/err")"
  got=$(tag_rows "$tmp/p.json" tid)
  want=$(tag_rows "$f" thread_id | sed 's/^thread_id /tid /')
  [ "$(echo "$want" | wc -l)" -eq 6 ] || fail "$f: not its six thread ids: $want"
  expect "$f: tags of the copy" "$got" "$want"
  [ "$(ff_threads "$tmp/p.json" | cut -d'|' -f1 | sort -u)" = parca ] || fail "$f: names $(ff_threads "$tmp/p.json")"
else
  echo "t_thread_ids: $f absent: its part skipped"
fi
# 6. THE made-up-id rule (pcol_made_up_id, lasts.h): a made-up pid or tid
# is no process's or thread's real one in the file.  An Rprof source (no
# labels) merged before a perf thread of pid 1, tid 1: before, its
# made-up pid was its number, 1 (rd11 F1: the Firefox Profiler grouped it
# into the perf thread's process 1), and the Chrome trace export gave it
# (1, 1) and moved the real thread to tid 2, in the Rprof source's process
# (rd11 F9)
printf 'app 1/1 [000] 1.000000: 1000000 cpu-clock:u:\n\tffff1 foo (/bin/app)\n\tffff2 main (/bin/app)\n\n' > "$tmp/pc.txt"
$PCOL merge examples/demo.out "$tmp/pc.txt" -o "$tmp/mc.pcol" || fail "merge demo.out pc.txt"
$PCOL unpack "$tmp/mc.pcol" --to firefox -o "$tmp/mc.json" 2>/dev/null || fail "made-up pid: firefox export"
expect "firefox threads of a made-up pid beside a real one" "$(ff_threads "$tmp/mc.json" | sed 's|^[^|]*/||')" "demo.out|0|2
app|1|1"
$PCOL unpack "$tmp/mc.pcol" --to chrome --no-gzip --value cpu -o "$tmp/mc.trace.json" 2>/dev/null || fail "made-up pid: chrome export"
got=$(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["ph"] == "M" or e["name"] == "Profile":
        print("%s %s|%s|%s" % (e["ph"], e["name"], e["tid"], e["pid"]) + ("|" + e["args"]["name"].rsplit("/", 1)[-1] if e["ph"] == "M" else ""))' "$tmp/mc.trace.json")
expect "chrome threads of a made-up pid beside a real one" "$got" "M process_name|0|2|demo.out
M process_name|0|1|pc.txt
M thread_name|1|1|app
P Profile|2|2
P Profile|1|1"
# a pid label that is no number ("w-42"): the Chrome trace export, whose
# pids are numbers, makes one up, and says so (before: silently)
python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
assert b.count(b"\x044242") == 1  # the string table entry "4242"
open(sys.argv[2], "wb").write(b.replace(b"\x044242", b"\x04w-42"))' "$tmp/e.pb" "$tmp/ew.pb" || fail "pid w-42"
$PCOL unpack "$tmp/ew.pb" --to chrome --no-gzip -o "$tmp/ew.trace.json" 2>"$tmp/err" || fail "chrome export of pid w-42"
grep -F 'ew.pb: 4 threads have a pid label that is no whole number up to 2^53 (a trace event'"'"'s pid): their pid is made up (the first label: "w-42")' "$tmp/err" |
  grep -q '^pcol unpack: note: ' ||
  fail "chrome export of pid w-42: no note: $(cat "$tmp/err")"
[ "$(ct_threads "$tmp/ew.trace.json" | cut -d'|' -f3 | sort -u)" = 1 ] || fail "pid w-42: $(ct_threads "$tmp/ew.trace.json")"
# the word of a note is the kind the library states (pcol_export_notes),
# not read from the text (review rd14a F5: the CLI matched " pid is made
# up" anywhere in it, so a value type or label of those words turned the
# warning of negative amounts into a note); a path of them neither
hp="$tmp/a pid is made up.pb"
python3 tests/support/pprofgen.py typed "$hp" "space pid is made up:bytes" "2,1:-5" "3,1:7" || fail "pprofgen.py typed"
for to in perun speedscope; do
  "$PCOL" unpack "$hp" --to "$to" -o "$tmp/hp.$to" 2>"$tmp/err" || fail "negative amounts -> $to: $(cat "$tmp/err")"
  grep -q "^pcol unpack: warning: $hp: 1 .*negative.*space pid is made up/bytes" "$tmp/err" ||
    fail "negative amounts -> $to: not a warning: $(cat "$tmp/err")"
  ! grep -q "^pcol unpack: note: " "$tmp/err" || fail "negative amounts -> $to: a note: $(cat "$tmp/err")"
done
echo "t_thread_ids: ok"
