#!/usr/bin/env bash
# The event a perf script of several events opens on (THE default rule,
# lib/convert/perf/perf_import.c default_event; doc/mappings.md §9): perf
# report leads with the first event of perf.data's header that has samples
# (the first -e: `-e page-faults,cpu-clock` leads with page-faults).
#  - perf script --header lists the events in that order ("# event : name
#    = ...") and pcol's default follows it; before, it opened on cpu-clock
#    (the first time event) where perf report leads with page-faults.
#  - Without the list the text does not tell the order (an execve page
#    fault is printed first whichever -e came first): the first time event,
#    else the most samples, as before (review 18 F7: `-e
#    cpu-clock,page-faults` must open on cpu-clock).
# Real recordings (perf record of a shell loop, both orders, perf report
# --stdio as the judge) when perf record is allowed here; a perf script
# text of the same form always.
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
default_of() { # the default value's name of FILE (pcol info's values: line)
  $PCOL info "$1" | sed -n 's/^ *values: .*(default: \(.*\)\/[^/]*)$/\1/p'
}
# perf script's text: HEADER-LINES then events (an execve page fault first)
sample() { # sample TIME PERIOD EVENT FUNC
  printf 'sh  8404 %s: %10d %s: \n\t    5000 %s+0x0 (/bin/sh)\n\t    4000 main+0x0 (/bin/sh)\n\n' "$1" "$2" "$3" "$4"
}
hdr() { # hdr NAME...: the "# event :" lines of perf script --header
  echo '# ========'
  echo '# captured on    : Mon Nov 30 09:56:05 2026'
  for e in "$@"; do
    echo "# event : name = $e, , id = { 1902, 1903 }, type = 1, size = 128, { sample_period, sample_freq } = 4000, sample_type = IP|TID|TIME|CALLCHAIN|ID|PERIOD"
  done
  echo '# ========'
  echo '#'
}
body() {
  sample 100.000100 1 "page-faults$1" execve
  sample 100.000200 1 "page-faults$1" execve
  sample 100.001000 250000 "cpu-clock$1" loop
  sample 100.002000 250000 "cpu-clock$1" loop
  sample 100.003000 250000 "cpu-clock$1" loop
}
body "" >"$tmp/plain.perf"
{ hdr page-faults cpu-clock; body ""; } >"$tmp/pf_first.perf"
{ hdr cpu-clock page-faults; body ""; } >"$tmp/cc_first.perf"
# an event listed without samples (perf report skips it: --skip-empty is
# its default) and one perf adds (dummy:u): the first listed with samples
{ hdr major-faults dummy:u page-faults cpu-clock; body ""; } >"$tmp/empty_first.perf"
# modifiers, as perf prints them in both places (cut as the value's name)
{ hdr page-faults:u cpu-clock:u; body ":u"; } >"$tmp/mods.perf"
# a name with commas (a raw PMU event): the name ends at perf's ", "
{ hdr 'cpu/event=0x3c,umask=0x0/' cpu-clock
  sample 100.000100 7 'cpu/event=0x3c,umask=0x0/' execve
  body ""; } >"$tmp/raw.perf"
for c in "plain cpu-clock" "pf_first page-faults" "cc_first cpu-clock" "empty_first page-faults" \
         "mods page-faults" "raw cpu/event=0x3c,umask=0x0/"; do
  set -- $c
  got=$(default_of "$tmp/$1.perf")
  [ "$got" = "$2" ] || fail "$1: the default is '$got', not $2: $($PCOL info "$tmp/$1.perf" | grep values:)"
done
# what pcol top opens on: page-faults' 2 (counted), not cpu-clock's 750000 ns
tot=$($PCOL top "$tmp/pf_first.perf" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
[ "$tot" = 2 ] || fail "pf_first: pcol top totals $tot, not page-faults' 2"

# Real recordings, judged by perf report --stdio (its first "of event").
if ! command -v perf >/dev/null 2>&1; then
  echo "note: perf not installed: the real recordings are not checked"
elif ! perf record -q -e cpu-clock -o "$tmp/probe.data" -- true >"$tmp/probe.log" 2>&1; then
  echo "note: perf record refused here (kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo '?')): the real recordings are not checked"
else
  for evs in page-faults,cpu-clock cpu-clock,page-faults; do
    d="$tmp/$evs.data"
    perf record -q -e "$evs" -g -o "$d" -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' \
      >"$tmp/rec.log" 2>&1 || { fail "perf record -e $evs: $(head -3 "$tmp/rec.log")"; continue; }
    lead=$(perf report -i "$d" --stdio 2>/dev/null | sed -n "s/^# Samples: .* of event '\([^']*\)'.*/\1/p" | head -1)
    perf script -i "$d" --header >"$tmp/h.perf" 2>/dev/null || fail "perf script --header -i $evs"
    perf script -i "$d" >"$tmp/p.perf" 2>/dev/null || fail "perf script -i $evs"
    [ "${evs%%,*}" = "$lead" ] || echo "note: -e $evs: perf report leads with '$lead'"
    got=$(default_of "$tmp/h.perf")
    [ -n "$lead" ] && [ "$got" = "$lead" ] ||
      fail "-e $evs, perf script --header: pcol opens on '$got', perf report leads with '$lead'"
    # without the header: the time event (review 18 F7's rule)
    got=$(default_of "$tmp/p.perf")
    [ "$got" = cpu-clock ] || fail "-e $evs, perf script: pcol opens on '$got', not cpu-clock"
  done
fi
[ "$fails" = 0 ] && echo "t_perf_events: passed" || { echo "t_perf_events: $fails failed"; exit 1; }
