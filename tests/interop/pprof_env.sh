# pprof_env.sh — sourced by the tests that compare pcol with go tool
# pprof's own binary (t_graph.sh, t_callgrind.sh, t_pprof_views.sh,
# t_pprof_semantics.sh): sets PCOL, TD (the shared test data), tmp (removed
# at exit), PPROF (the binary `go tool` would run: a go command start a call
# saved; the sessions of pprof_session.sh start it) and an environment in
# which pprof reads nothing of the machine's (GOCACHE, when not given, a
# new one in tmp); exits 77 (skip) without go, naming $PPROF_WHAT.
# pprof_inputs: the pprof profiles of the test data both compare, one a
# line: not those with control bytes (pcol escapes them), nor OTLP ones or
# those pcol refuses (judged in t_pprof_views.sh).
if ! command -v go >/dev/null 2>&1; then
  echo "SKIP: go not installed (apt-get install golang-go to compare $PPROF_WHAT)"
  exit 77
fi
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home PPROF_BINARY_PATH=/nonexistent GOCACHE=${GOCACHE:-$tmp/gocache} GOPROXY=off \
  GOTOOLCHAIN=local TZ=UTC
mkdir -p "$HOME"
PPROF=$(go tool -n pprof 2>/dev/null) || PPROF=
[ -x "$PPROF" ] || { echo "SKIP: go tool -n pprof gives no binary"; exit 77; }

pprof_inputs() {
  local f
  for f in "$TD"/pprof/*.pb.gz "$TD"/pprof/*.pb "$TD"/ext/pprof/*; do
    [ -f "$f" ] || continue
    case $f in *edge-invalid-utf8*) continue ;; esac
    "$PCOL" info "$f" 2>/dev/null | grep -q 'input_format: *otlp' && continue
    "$PCOL" info "$f" >/dev/null 2>&1 || continue
    printf '%s\n' "$f"
  done
}
