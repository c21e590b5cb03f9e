#!/usr/bin/env bash
# Names and shares on the report page, in headless Chromium
# (report_names_check.cjs): the call tree's and the callers/callees
# panel's shares in go tool pprof's percentage format, as the table and
# pcol peek (review 22 F6).  Exit 77 (skip) without Chromium or node.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "t_report_names: SKIP: $*" >&2; exit 77; }
fail() { echo "t_report_names: FAIL: $*" >&2; exit 1; }
BROWSER=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$BROWSER" ] || skip "chromium not installed"
command -v node >/dev/null || skip "node not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=""
add() { cases="$cases${cases:+,}$1"; }
j=$TD/pprof/java-cpu-async-profiler.pb.gz
if [ -f "$j" ]; then
  "$PCOL" report "$j" -o "$tmp/java.html" || fail "report $j"
  total=$("$PCOL" top "$j" --format json | head -1 | sed -n 's/.*"total":\(-\{0,1\}[0-9][0-9]*\),.*/\1/p')
  [ -n "$total" ] || fail "pcol top --format json $j: no total"
  add "{\"name\":\"java\",\"html\":\"$tmp/java.html\",\"total\":$total,\"checks\":[\"pct\"]}"
fi
[ -n "$cases" ] || skip "no test data"
printf '[%s]\n' "$cases" >"$tmp/cases.json"
timeout 600 node "$here/report_names_check.cjs" "$BROWSER" "$tmp/cases.json" || fail "the pages differ (above)"
echo "t_report_names: ok" >&2
