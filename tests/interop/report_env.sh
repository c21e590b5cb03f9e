# report_env.sh — sourced by t_report.sh and t_report_names.sh (pcol
# report's pages in headless Chromium), with T the test's name: sets PCOL,
# TD (the test data), here (this folder), skip and fail (naming $T),
# BROWSER (Chromium's binary) and tmp (removed at exit); exits 77 (skip)
# without Chromium or node.
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "$T: SKIP: $*" >&2; exit 77; }
fail() { echo "$T: FAIL: $*" >&2; exit 1; }
BROWSER=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$BROWSER" ] || skip "chromium not installed"
command -v node >/dev/null || skip "node not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
