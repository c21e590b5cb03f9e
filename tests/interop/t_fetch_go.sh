#!/usr/bin/env bash
# pcol reads Go's own profile endpoints as `go tool pprof URL` does
# (tools/fetch.c): a real net/http/pprof server (tests/go/serve, on
# 127.0.0.1, stopped within 300 s, the trap stopping it sooner) gives a CPU profile of ?seconds=1 (the
# spinning function and its pprof.Do label in it; also from a URL with no
# path, as go tool pprof asks for /debug/pprof/profile), a heap profile, and
# its own refusal ("404 Not Found - Unknown profile", text/plain with
# X-Go-Pprof), which pcol shows as pprof does; and for one file served
# over HTTP, `pcol top URL` prints what `go tool pprof -top URL` prints;
# HOST:PORT with no scheme and --seconds 1 ask for what go tool pprof
# -seconds 1 HOST:PORT asks for (the same path and query).
set -u
PCOL=$(cd "$(dirname "${PCOL:-build/bin/pcol}")" && pwd)/$(basename "${PCOL:-build/bin/pcol}")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
command -v go >/dev/null || { echo "t_fetch_go: go not installed: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "t_fetch_go: python3 not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
fail() { echo "t_fetch_go: FAIL: $*" >&2; exit 1; }
export TMPDIR="$tmp/t" PPROF_TMPDIR="$tmp/pprof"
mkdir -p "$TMPDIR" "$PPROF_TMPDIR"

(cd "$REPO/tests/go" && go build -o "$tmp/serve" ./serve) || fail "go build ./serve"
"$tmp/serve" "$tmp/port" 300 &
pids="$pids $!"
for _ in $(seq 300); do [ -s "$tmp/port" ] && break; sleep 0.1; done
[ -s "$tmp/port" ] || fail "the Go server did not start"
g="http://127.0.0.1:$(cat "$tmp/port")/debug/pprof"

"$PCOL" top "$g/profile?seconds=1" --format tsv >"$tmp/cpu.tsv" 2>"$tmp/e" || { cat "$tmp/e"; fail "top profile?seconds=1"; }
grep -q $'\tmain.spin\t' "$tmp/cpu.tsv" || { head "$tmp/cpu.tsv"; fail "the CPU profile lacks main.spin"; }
"$PCOL" pack "$g/profile?seconds=1" -o "$tmp/cpu.pcol" || fail "pack profile?seconds=1"
"$PCOL" info "$tmp/cpu.pcol" | grep -q "pprof $g/profile?seconds=1\$" || fail "pack: the source is not the URL"
"$PCOL" tags "$tmp/cpu.pcol" | grep -q "spinner" || fail "the label of pprof.Do"
# no path: Go's CPU profile handler, as go tool pprof http://HOST:PORT asks for it
"$PCOL" top "${g%/debug/pprof}?seconds=1" --format tsv >"$tmp/cpu0.tsv" 2>"$tmp/e" || { cat "$tmp/e"; fail "top of a URL with no path"; }
grep -q $'\tmain.spin\t' "$tmp/cpu0.tsv" || { head "$tmp/cpu0.tsv"; fail "a URL with no path: not the CPU profile"; }
"$PCOL" top "$g/heap" --value inuse_space --format tsv >"$tmp/heap.tsv" || fail "top heap"
grep -q $'\tmain.hold\t' "$tmp/heap.tsv" || { head "$tmp/heap.tsv"; fail "the heap profile lacks main.hold"; }
"$PCOL" top "$g/goroutine" >/dev/null || fail "top goroutine"
if "$PCOL" top "$g/nothing" 2>"$tmp/e"; then fail "an unknown profile: exit 0"; fi
grep -qF "$g/nothing: server response: 404 Not Found - Unknown profile" "$tmp/e" || { cat "$tmp/e"; fail "Go's refusal"; }
# HOST:PORT with no scheme and --seconds 1, as go tool pprof -seconds 1
# HOST:PORT: Go's CPU handler samples 1 s, not its default 30
h=${g#http://}
h=${h%/debug/pprof}
s=$(date +%s)
"$PCOL" top "$h" --seconds 1 --format tsv >"$tmp/cpu1.tsv" 2>"$tmp/e" || { cat "$tmp/e"; fail "top HOST:PORT --seconds 1"; }
"$PCOL" top "$h/debug/pprof/profile?seconds=30" --seconds 1 --format tsv >>"$tmp/cpu1.tsv" 2>"$tmp/e" || { cat "$tmp/e"; fail "top HOST:PORT/PATH --seconds 1"; }
[ $(($(date +%s) - s)) -le 20 ] || fail "--seconds 1: Go's handler did not sample 1 s"
[ "$(grep -c $'\tmain.spin\t' "$tmp/cpu1.tsv")" = 2 ] || { head "$tmp/cpu1.tsv"; fail "HOST:PORT --seconds 1: not the CPU profile"; }
[ -z "$(ls -A "$TMPDIR")" ] || fail "temporary files left: $(ls "$TMPDIR")"

# one file over HTTP: go tool pprof's fetch and pcol's read the same profile
mkdir -p "$tmp/www"
"$PCOL" unpack "$tmp/cpu.pcol" --to pprof -o "$tmp/www/cpu.pb.gz" || fail "unpack"
python3 "$REPO/tests/support/http_serve.py" "$tmp/www" "$tmp/port2" 600 &
pids="$pids $!"
for _ in $(seq 300); do [ -s "$tmp/port2" ] && break; sleep 0.1; done
[ -s "$tmp/port2" ] || fail "the file server did not start"
u="http://127.0.0.1:$(cat "$tmp/port2")/cpu.pb.gz"
n=0
for args in "-top" "-top -cum" "-top -lines" "-traces"; do
  pa=$(echo "$args" | sed 's/^-top/top/; s/^-traces/traces/; s/-cum/--sort cum/; s/-lines/--by line/')
  # from the first "Showing nodes" line (traces: separator line) on, as
  # t_pprof_views.sh compares them: the headers differ by design (doc/cli.md)
  cut='/^Showing nodes/,$p'
  [ "$args" = -traces ] && cut='/^-----------+-/,$p'
  # shellcheck disable=SC2086 # the options are words
  go tool pprof -symbolize=none $args "$u" 2>/dev/null | sed -n "$cut" >"$tmp/go.out" || fail "go tool pprof $args URL"
  # shellcheck disable=SC2086
  "$PCOL" $pa "$u" | sed -n "$cut" >"$tmp/pcol.out" || fail "pcol $pa URL"
  [ -s "$tmp/go.out" ] || fail "go tool pprof $args URL: nothing"
  cmp -s "$tmp/go.out" "$tmp/pcol.out" || { diff "$tmp/go.out" "$tmp/pcol.out" | head; fail "pcol $pa URL differs from go tool pprof $args URL"; }
  n=$((n + 1))
done
# the requests go tool pprof -seconds 1 SOURCE and pcol --seconds 1 SOURCE
# send (the file server logs each one's path and query): the same, for
# HOST:PORT with no scheme, no path, and a query holding seconds= already
cp "$tmp/www/cpu.pb.gz" "$tmp/www/profile"
hp="127.0.0.1:$(cat "$tmp/port2")"
(cd "$tmp" && for src in "$hp" "$hp/debug/pprof/cpu.pb.gz?debug=0&seconds=30" "http://$hp/x/cpu.pb.gz"; do
  : >"$tmp/requests.log"
  go tool pprof -symbolize=none -seconds 1 -top "$src" 2>/dev/null | sed -n '/^Showing nodes/,$p' >"$tmp/go.out"
  cp "$tmp/requests.log" "$tmp/go.req"
  : >"$tmp/requests.log"
  "$PCOL" top "$src" --seconds 1 | sed -n '/^Showing nodes/,$p' >"$tmp/pcol.out"
  [ -s "$tmp/go.req" ] && cmp -s "$tmp/go.req" "$tmp/requests.log" ||
    { cat "$tmp/go.req" "$tmp/requests.log"; fail "$src --seconds 1: not the request of go tool pprof -seconds 1"; }
  [ -s "$tmp/go.out" ] && cmp -s "$tmp/go.out" "$tmp/pcol.out" ||
    { diff "$tmp/go.out" "$tmp/pcol.out" | head; fail "pcol top $src --seconds 1 differs from go tool pprof's"; }
done) || exit 1
n=$((n + 3))
echo "t_fetch_go: ok (Go's endpoints; $n views equal to go tool pprof's over HTTP)"
