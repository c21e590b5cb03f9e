#!/usr/bin/env bash
# CLI tests: each tests/cli/*.sh runs with $PCOL set.  JOBS=N runs N at a
# time (make check uses 2); each test's output is printed when it ends.
set -u
jobs=${JOBS:-1}
# LEAKS=errors (make test, on the ASan build): LeakSanitizer's scan at exit
# costs ~80 ms of CPU per process, more than half of the whole CLI stage, so
# it stays on only for the tests of error paths (where a leak would be: the
# library's normal paths are leak-checked by the unit tests, which call it
# directly and run with LeakSanitizer on).  Any other value: on for all.
leak_tests=" t_exit_codes.sh t_hostile.sh t_bombs.sh t_nothing_lost.sh t_output_paths.sh t_writer_crash.sh "
export leak_tests LEAKS=${LEAKS:-all}
# A sanitizer's report exits 86, not 1 (ASan's and UBSan's default): the
# tests take exit 1 for a clean refusal, so a finding on a refusal path
# would otherwise pass (t_conformance_views did, over a UBSan report).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
dir=$(dirname "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The longest first (CPU seconds under make test's ASan build on the CI
# machine, bench/results/test-time.md: 200 150 134 117 67 67 60 52 45 45 41
# 39 35 28 28 27), so that two at a time end together, not with one long
# test running alone; the rest (22 s or less) in name order.
first="t_format_versions.sh t_report_compute.sh t_many.sh t_conformance_views.sh t_otlp.sh"
first="$first t_perf_v8_speedscope.sh t_core.sh t_hostile.sh t_exit_codes.sh t_index.sh t_detect.sh"
first="$first t_contract.sh t_bombs.sh t_firefox.sh t_chrome_range.sh t_perun.sh"
# QUICK=1 (make check, the quick loop): the tests that take more than ~15 s
# of CPU on the plain build are left to make test (it runs them all, under
# the sanitizers), so that make check stays near 3 minutes on 2 cores: whole-
# corpus passes (t_format_versions, t_conformance_views, t_core, t_detect),
# big inputs (t_many, t_index, t_bombs, t_chrome_range), the report page's
# computing modules in node (t_report_compute) and the longest format tests.
# CPU seconds of each on the plain build, make check on 2026-11-28 at a load
# of 10-17: 103 72 71 46 41 39 38 29 26 25 23 22 20 19 16; every other test
# took 13 s or less.  `make test-cli` runs all of them on the plain build.
slow=" t_format_versions.sh t_report_compute.sh t_many.sh t_perf_v8_speedscope.sh t_otlp.sh"
slow="$slow t_hostile.sh t_chrome_range.sh t_conformance_views.sh t_firefox.sh t_nothing_lost.sh"
slow="$slow t_detect.sh t_core.sh t_index.sh t_bombs.sh t_jfr.sh "
quick() { # quick NAME: whether the test runs (QUICK=1 leaves the slow ones)
  [ "${QUICK:-}" != 1 ] || [ "${slow#* $1 }" = "$slow" ]
}
if [ "${QUICK:-}" = 1 ]; then
  left=$(for n in $slow; do [ -f "$dir/$n" ] && printf ' %s' "${n%.sh}"; done)
  echo "cli: the quick loop (QUICK=1) leaves to make test:$left"
fi
{ for n in $first; do [ -f "$dir/$n" ] && quick "$n" && echo "$dir/$n"; done
  ls "$dir"/t_*.sh 2>/dev/null | while read -r t; do
    case " $first " in *" $(basename "$t") "*) ;; *) quick "$(basename "$t")" && echo "$t";; esac
  done; } | xargs -r -P "$jobs" -I{} bash -c '
  t={}; n=$(basename "$t"); o="$0/$n"; s=$(date +%s)
  if [ -x /usr/bin/time ]; then run="/usr/bin/time -f %U+%S -o $o.cpu"; else run=; fi
  if [ "$LEAKS" = errors ] && [ "${leak_tests#* $n }" = "$leak_tests" ]; then
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
  fi
  if $run bash "$t" >"$o.log" 2>&1; then echo ok >"$o.rc"; else echo FAIL >"$o.rc"; fi
  cpu=$( [ -s "$o.cpu" ] && echo ", cpu $(tail -1 "$o.cpu" | awk -F+ "{printf \"%.0f\", \$1+\$2}") s")
  cat "$o.log"; echo "$(cat "$o.rc") $n ($(( $(date +%s) - s )) s$cpu)"' "$out"
pass=0; fail=0
for r in "$out"/*.rc; do
  [ -e "$r" ] || continue
  if [ "$(cat "$r")" = ok ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $(basename "$r" .rc)"; fi
done
echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
