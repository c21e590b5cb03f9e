# cli_env.sh — sourced by CLI tests (run from the repository's root, as
# run_all.sh runs them), with T the test's name: sets PCOL, TD (the test
# data), tmp (removed at exit) and fail (naming $T).
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$T: FAIL: $*" >&2; exit 1; }
