#!/usr/bin/env bash
# CLI: inputs fetched over HTTP (tools/fetch.c), as `go tool pprof URL`
# fetches them, from a server on 127.0.0.1 (tests/support/http_serve.py,
# stopped within 600 s: the trap stops it at the end; the bound only keeps
# an orphan from outliving a killed run, and must outlast the test itself:
# 20 s on the plain build, several times that under the sanitizers on a
# loaded machine, too near the 120 s it was).  A URL reads as its body's file does (every way
# of sending a body: a length, chunks, the close, redirects), is named by
# its URL in the source and in messages, works wherever an input does
# (views, --base, diff, pack, merge, a union), and every refusal (the
# server's status and text, escaped; a timeout; a head that is too long; a
# body cut short; not HTTP; https; a name that does not resolve in time)
# exits non-zero, naming the URL, and
# leaves no temporary file, also when the fetch is killed.  HOST:PORT[/PATH]
# with no scheme is its http:// URL unless a file of that name exists
# (go tool pprof's rule), other names stay files; --seconds N sends
# seconds=N as go tool pprof -seconds N does, and the deadline follows.
set -u
PCOL=$(cd "$(dirname "${PCOL:-build/bin/pcol}")" && pwd)/$(basename "${PCOL:-build/bin/pcol}")
command -v python3 >/dev/null || { echo "t_fetch: python3 not installed: skipped"; exit 0; }
here=$(cd "$(dirname "$0")/../support" && pwd)
data=$(cd "$(dirname "$0")/../../../shared/testdata" 2>/dev/null && pwd) ||
  { echo "t_fetch: ../shared/testdata not found: skipped"; exit 0; }
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "t_fetch: FAIL: $*" >&2; exit 1; }

mkdir -p "$tmp/www" "$tmp/t"
cp "$data/pprof/go-cpu-inline-small.pb.gz" "$tmp/www/cpu.pb.gz"
gzip -dc "$data/pprof/go-heap-allocs-inline.pb.gz" >"$tmp/www/heap.pb"
cp "$data/pprof/go-cpu-string-labels.pb.gz" "$tmp/www/labels.pb.gz"
"$PCOL" pack "$tmp/www/cpu.pb.gz" -o "$tmp/www/cpu.pcol" || fail "pack"
printf 'main;a;b 5\nmain;c 3\n' >"$tmp/www/st.collapsed"
python3 "$here/http_serve.py" "$tmp/www" "$tmp/port" 600 &
srv=$!
for _ in $(seq 300); do [ -s "$tmp/port" ] && break; sleep 0.1; done
[ -s "$tmp/port" ] || fail "the server did not start"
u="http://127.0.0.1:$(cat "$tmp/port")"
export TMPDIR="$tmp/t"
clean() { [ -z "$(ls -A "$TMPDIR")" ] || fail "$1: left $(ls "$TMPDIR")"; }
# pcol's output for a URL: the same as for its file, but for the file's name
same() { # same URL FILE ARGS...
  local url=$1 file=$2
  shift 2
  "$PCOL" "$@" "$url" >"$tmp/u.out" 2>"$tmp/u.err" || { cat "$tmp/u.err"; fail "$* $url"; }
  "$PCOL" "$@" "$file" >"$tmp/f.out" 2>&1 || fail "$* $file"
  sed -i "s|$url|FILE|g" "$tmp/u.out"
  sed -i "s|$file|FILE|g" "$tmp/f.out"
  cmp -s "$tmp/u.out" "$tmp/f.out" || { diff "$tmp/f.out" "$tmp/u.out" | head; fail "$* $url differs from its file"; }
  [ ! -s "$tmp/u.err" ] || { cat "$tmp/u.err"; fail "$* $url: a message"; }
  clean "$* $url"
}
for f in cpu.pb.gz heap.pb cpu.pcol st.collapsed labels.pb.gz; do
  same "$u/$f" "$tmp/www/$f" top
  same "$u/$f" "$tmp/www/$f" top --format json -n 5
done
same "$u/rel" "$tmp/www/cpu.pb.gz" top
for via in chunked close redirect redirect-abs; do
  same "$u/$via/heap.pb" "$tmp/www/heap.pb" top --by line
  same "$u/$via/cpu.pb.gz" "$tmp/www/cpu.pb.gz" traces
done
same "$u/labels.pb.gz" "$tmp/www/labels.pb.gz" tags
same "$u/cpu.pb.gz" "$tmp/www/cpu.pb.gz" fold
# info: the file made of it differs only by the name's bytes
"$PCOL" info "$u/cpu.pb.gz" >"$tmp/i.out" || fail "info URL"
grep -q "^source 1: *pprof $u/cpu.pb.gz\$" "$tmp/i.out" || { cat "$tmp/i.out"; fail "info: the source is not the URL"; }
grep -q "^file: *$u/cpu.pb.gz\$" "$tmp/i.out" || fail "info: the file is not the URL"
# the URL names the source that pack and merge write
"$PCOL" pack "$u/cpu.pb.gz" -o "$tmp/p.pcol" || fail "pack URL"
"$PCOL" cat "$tmp/p.pcol" --table sources | grep -q "$u/cpu.pb.gz" || fail "pack: the source is not named by its URL"
"$PCOL" merge "$u/cpu.pb.gz" "$tmp/www/heap.pb" "$u/chunked/labels.pb.gz" -o "$tmp/m.pcol" || fail "merge URLs"
"$PCOL" merge "$tmp/www/cpu.pb.gz" "$tmp/www/heap.pb" "$tmp/www/labels.pb.gz" -o "$tmp/m2.pcol" || fail "merge files"
[ "$("$PCOL" top "$tmp/m.pcol" --value samples --format tsv)" = "$("$PCOL" top "$tmp/m2.pcol" --value samples --format tsv)" ] || fail "merge of URLs differs"
[ "$("$PCOL" cat "$tmp/m.pcol" --table sources | grep -c "$u/")" = 2 ] || fail "merge: the URLs' sources"
clean "pack, merge"
# an input wherever one goes: a union, --base, diff
[ "$("$PCOL" top "$u/cpu.pb.gz" "$u/cpu.pcol" --format tsv)" = "$("$PCOL" top "$tmp/www/cpu.pb.gz" "$tmp/www/cpu.pcol" --format tsv)" ] ||
  fail "top of two URLs"
[ "$("$PCOL" top "$tmp/www/heap.pb" --base "$u/heap.pb" --format tsv)" = "$("$PCOL" top "$tmp/www/heap.pb" --base "$tmp/www/heap.pb" --format tsv)" ] ||
  fail "--base URL"
[ "$("$PCOL" diff "$u/cpu.pb.gz" "$u/redirect/cpu.pcol" --format tsv)" = "$("$PCOL" diff "$tmp/www/cpu.pb.gz" "$tmp/www/cpu.pcol" --format tsv)" ] ||
  fail "diff of URLs"
clean "union, base, diff"
# pprof's query is sent as written (?seconds=N: the timeout is 1.5 N + 5 s)
"$PCOL" top "$u/cpu.pb.gz?seconds=2&x=%20y#frag" >/dev/null || fail "a query"
grep -qx '/cpu.pb.gz?seconds=2&x=%20y' "$tmp/requests.log" || fail "the query was not sent as written"

# a URL with no path (or the path "/" alone) is Go's CPU profile handler,
# its query kept, as go tool pprof's adjustURL makes it (cmd/pprof)
cp "$tmp/www/cpu.pb.gz" "$tmp/www/profile"
: >"$tmp/requests.log"
same "$u" "$tmp/www/profile" top
same "$u/" "$tmp/www/profile" top
"$PCOL" top "$u?seconds=2#frag" >/dev/null || fail "no path, a query"
"$PCOL" top "$u/?seconds=2" >/dev/null || fail "the path /, a query"
[ "$(cat "$tmp/requests.log")" = "$(printf '%s\n' /debug/pprof/profile /debug/pprof/profile \
  '/debug/pprof/profile?seconds=2' '/debug/pprof/profile?seconds=2')" ] ||
  { cat "$tmp/requests.log"; fail "a URL without a path did not ask for /debug/pprof/profile"; }

# HOST:PORT[/PATH] with no scheme, when no such file exists, is
# http://HOST:PORT[/PATH], as go tool pprof takes it (cmd/pprof's adjustURL:
# "http://" + source), named so in the output; an existing file or directory
# of that name wins (Go >= 1.22's fetcher: os.Stat first), and a name that
# is not HOST:PORT is a missing file, not a fetch
hp="127.0.0.1:$(cat "$tmp/port")"
mkdir -p "$tmp/cwd"
cd "$tmp/cwd" || fail "cd"
: >"$tmp/requests.log"
"$PCOL" top "$hp/cpu.pb.gz" >"$tmp/h.out" 2>"$tmp/h.err" || { cat "$tmp/h.err"; fail "top HOST:PORT/PATH"; }
"$PCOL" top "$u/cpu.pb.gz" >"$tmp/u.out" || fail "top URL"
cmp -s "$tmp/h.out" "$tmp/u.out" || { diff "$tmp/u.out" "$tmp/h.out" | head; fail "HOST:PORT/PATH is not its http:// URL"; }
grep -qx "File: $u/cpu.pb.gz" "$tmp/h.out" || fail "HOST:PORT/PATH: not named by its URL"
[ ! -s "$tmp/h.err" ] || { cat "$tmp/h.err"; fail "HOST:PORT/PATH: a message"; }
"$PCOL" top "$hp" >/dev/null || fail "top HOST:PORT"
"$PCOL" top "$tmp/www/heap.pb" --base "$hp/heap.pb" >/dev/null || fail "--base HOST:PORT/PATH"
[ "$(cat "$tmp/requests.log")" = "$(printf '%s\n' /cpu.pb.gz /cpu.pb.gz /debug/pprof/profile /heap.pb)" ] ||
  { cat "$tmp/requests.log"; fail "HOST:PORT: not the requests of its http:// URL"; }
clean "HOST:PORT"
: >"$tmp/requests.log"
cp "$tmp/www/heap.pb" "$hp" # a file called HOST:PORT
"$PCOL" top "$hp" --format tsv >"$tmp/h.out" || fail "a file called HOST:PORT"
[ "$(cat "$tmp/h.out")" = "$("$PCOL" top "$tmp/www/heap.pb" --format tsv)" ] || fail "a file called HOST:PORT: not read"
rm "$hp"
mkdir -p "$hp/sub" # a directory called HOST:PORT: a path in it is a path
cp "$tmp/www/heap.pb" "$hp/sub/h.pb"
"$PCOL" top "$hp/sub/h.pb" --format tsv >"$tmp/h.out" || fail "a file in a directory called HOST:PORT"
[ "$(cat "$tmp/h.out")" = "$("$PCOL" top "$tmp/www/heap.pb" --format tsv)" ] || fail "a file in a directory called HOST:PORT: not read"
for name in "$hp/sub/missing.pb" "$hp/missing.pb" cpu.pb.gz mem_03:55:24.pb.gz mem_03:55:24 host: a:b x:0 x:65536 \
  x:6060x '[ab]:1' -x:1; do
  "$PCOL" top "$name" >"$tmp/o" 2>"$tmp/e" && fail "$name: exit 0"
  want="^pcol top: $name: No such file or directory\$"
  [ "$name" = -x:1 ] && want="unknown option '-x:1'"
  [ "$name" = '[ab]:1' ] && want="no file matches '\[ab\]:1'" # a glob
  grep -q -- "$want" "$tmp/e" || { cat "$tmp/e"; fail "$name: not said to be a missing file"; }
  ! grep -q "as a URL" "$tmp/e" || fail "$name: taken for a URL"
done
rm -r "$hp"
[ ! -s "$tmp/requests.log" ] || { cat "$tmp/requests.log"; fail "a file or a name that is not HOST:PORT was fetched"; }
# neither a file nor a server: both said
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
for name in "127.0.0.1:$port" "127.0.0.1:$port/debug/pprof/heap" "[::1]:$port" "localhost:$port?seconds=1"; do
  "$PCOL" top "$name" >"$tmp/o" 2>"$tmp/e"
  rc=$?
  [ "$rc" = 3 ] || fail "$name: exit $rc, not 3"
  grep -qF "pcol top: $name: No such file or directory; as a URL: http://$name: cannot" "$tmp/e" ||
    { cat "$tmp/e"; fail "$name: the file and the URL tried are not both said"; }
done
cd - >/dev/null || fail "cd -"
clean "HOST:PORT refused"

# --seconds N: pprof's -seconds, on every command that takes inputs: each URL
# input (--base's too) asks for seconds=N, on any path, in place of its own
# seconds= (go's adjustURL: values.Set), the other parameters kept, and the
# deadline follows (1.5 N + 5 s); files ignore it
: >"$tmp/requests.log"
"$PCOL" top "$hp" --seconds 1 >/dev/null || fail "--seconds HOST:PORT"
"$PCOL" top "$u/cpu.pb.gz?seconds=30&x=%20y&seconds=2#f" --seconds=2 >/dev/null || fail "--seconds on a query"
"$PCOL" fold "$u/heap.pb" --base "$hp/heap.pb" --seconds 007 >/dev/null || fail "--seconds with --base"
"$PCOL" diff "$u/cpu.pb.gz?debug=0" "$tmp/www/cpu.pb.gz" --seconds 3 >/dev/null || fail "diff --seconds"
[ "$(cat "$tmp/requests.log")" = "$(printf '%s\n' '/debug/pprof/profile?seconds=1' '/cpu.pb.gz?x=%20y&seconds=2' \
  '/heap.pb?seconds=7' '/heap.pb?seconds=7' '/cpu.pb.gz?debug=0&seconds=3')" ] ||
  { cat "$tmp/requests.log"; fail "--seconds: not the queries go tool pprof -seconds sends"; }
"$PCOL" top "$hp/cpu.pb.gz" --seconds 4 | grep -qx "File: $u/cpu.pb.gz?seconds=4" || fail "--seconds: the name is not the URL asked"
for c in info cat top peek tree list disasm graph tags traces fold flame report unpack diff merge pack export validate shell index; do
  "$PCOL" "$c" --help | grep -q -- '--seconds X ' || fail "$c: no --seconds"
done
[ "$("$PCOL" top "$tmp/www/heap.pb" --seconds 5 --format tsv)" = "$("$PCOL" top "$tmp/www/heap.pb" --format tsv)" ] ||
  fail "--seconds changed a file's answer"
s=$(date +%s)
"$PCOL" top "$u/slow" --seconds 1 >/dev/null 2>"$tmp/e" && fail "--seconds 1 on a server that never ends: exit 0"
took=$(($(date +%s) - s))
grep -q "timed out" "$tmp/e" || { cat "$tmp/e"; fail "--seconds 1: no timeout"; }
[ "$took" -ge 5 ] && [ "$took" -le 20 ] || fail "--seconds 1: the fetch gave up after ${took}s, not 1.5 x 1 + 5"
: >"$tmp/requests.log"
for bad in 0 -1 1.5 5s '' ' 5' 0x10 1000000 99999999999999999999999; do
  "$PCOL" top "$u/cpu.pb.gz" --seconds "$bad" >"$tmp/o" 2>"$tmp/e"
  rc=$?
  [ "$rc" = 2 ] || fail "--seconds '$bad': exit $rc, not 2"
  grep -qF -- "--seconds wants a whole number of seconds from 1 to 999999 (pprof's -seconds), not '$bad'" "$tmp/e" ||
    { cat "$tmp/e"; fail "--seconds '$bad': the message"; }
  "$PCOL" top "$tmp/www/heap.pb" --seconds "$bad" >/dev/null 2>&1 && fail "--seconds '$bad' with a file: exit 0"
done
[ ! -s "$tmp/requests.log" ] || { cat "$tmp/requests.log"; fail "a bad --seconds fetched"; }
clean "--seconds"

# refusals: non-zero, the URL named, the server's text when it is text
refuse() { # refuse WANT-RE URL [ARGS...]
  local want=$1 url=$2
  shift 2
  "$PCOL" top "$url" "$@" >"$tmp/o" 2>"$tmp/e"
  local rc=$?
  [ "$rc" != 0 ] || fail "$url: exit 0"
  [ -z "${CODE:-}" ] || [ "$rc" = "$CODE" ] || fail "$url: exit $rc, not $CODE"
  grep -qE -- "$want" "$tmp/e" || { cat "$tmp/e"; fail "$url: message lacks /$want/"; }
  grep -qF -- "$url" "$tmp/e" || { cat "$tmp/e"; fail "$url: message does not name it"; }
  [ ! -s "$tmp/o" ] || fail "$url: output on a refusal"
  LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/e" && fail "$url: a control character reached the terminal"
  clean "$url"
}
CODE=3 refuse "404 Not Found - no such profile" "$u/missing.pb.gz"
# a redirect to "/" is followed as it is (only the URL given gets the path)
CODE=3 refuse "404 Not Found" "$u/redirect/"
refuse "400 Bad Request - profile duration exceeds server's WriteTimeout" "$u/pprof-error"
refuse '500 Internal Server Error - \\x1b\]0;owned.*x\.\.\.$' "$u/noisy-error"
CODE=3 refuse "more than 5 redirects" "$u/loop"
CODE=3 refuse "redirected: https://127.0.0.1/x: pcol fetches http:// only; fetch it with .curl" "$u/https"
refuse "longer than 8192 bytes" "$u/long-header"
refuse "closed the connection before the end of the body" "$u/truncated/cpu.pb.gz"
refuse "bad chunk size" "$u/bad-chunk"
CODE=1 refuse "not an HTTP/1.x response" "$u/not-http"
CODE=1 refuse "two different Content-Length" "$u/two-lengths"
CODE=1 refuse "bad chunk size" "$u/hex-prefix"
CODE=3 refuse "server response: 304" "$u/not-modified"
PCOL_FETCH_TIMEOUT=1 refuse "timed out" "$u/slow"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CODE=3 refuse "cannot connect to 127.0.0.1 port $port" "http://127.0.0.1:$port/x"
CODE=2 refuse "http:// only" "https://127.0.0.1:1/x"
refuse "bad port" "http://127.0.0.1:99999/x"
refuse "user names and passwords" "http://me:pw@127.0.0.1:1/x"
refuse "no host" "http:///x"
refuse "empty input, no profile in it" "$u/seconds"
# the name's lookup is bounded by the deadline too: in a namespace of our
# own (where the system allows one) a resolver on 127.0.0.1 that never
# answers (glibc alone would wait 5 s x 2 attempts)
cat >"$tmp/ns.sh" <<'NS'
set -e
ip link set lo up
echo "nameserver 127.0.0.1" >"$1/resolv.conf"
mount --bind "$1/resolv.conf" /etc/resolv.conf
python3 -c '
import socket, time
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 53))
t = socket.socket(); t.bind(("127.0.0.1", 53)); t.listen(5)
open(__import__("sys").argv[1], "w").write("up")
time.sleep(30)' "$1/dns-up" &
for _ in $(seq 300); do [ -s "$1/dns-up" ] && break; sleep 0.1; done
s=$(date +%s)
PCOL_FETCH_TIMEOUT=1 "$2" top http://profiles.example.test/x 2>"$1/dns.err" && echo "exit 0"
echo "took $(($(date +%s) - s))"
kill %1
NS
if command -v unshare >/dev/null && command -v ip >/dev/null &&
  unshare -rmn true 2>/dev/null; then
  unshare -rmn bash "$tmp/ns.sh" "$tmp" "$PCOL" >"$tmp/dns.out" 2>&1 || true
  grep -q "timed out resolving 'profiles.example.test'" "$tmp/dns.err" ||
    { cat "$tmp/dns.out" "$tmp/dns.err"; fail "a lookup that never ends: not bounded by PCOL_FETCH_TIMEOUT"; }
  took=$(sed -n 's/^took //p' "$tmp/dns.out")
  [ "${took:-99}" -le 4 ] || fail "a lookup that never ends took ${took}s with PCOL_FETCH_TIMEOUT=1"
else
  echo "t_fetch: no user namespaces here: the lookup's deadline not checked"
fi
# a REGEX is not an input: peek's and list's last word is not fetched
"$PCOL" peek "$tmp/www/cpu.pb.gz" "$u/x" >/dev/null 2>"$tmp/e"
! grep -q "cannot connect\|server response" "$tmp/e" || fail "peek fetched its REGEX"
# a reader that goes away (SIGPIPE) leaves nothing behind
"$PCOL" traces "$u/labels.pb.gz" | head -c 10 >/dev/null
clean "a closed pipe"
# the shell fetches its inputs once, and a URL in one of its lines
printf 'top1 --base %s\n' "$u/labels.pb.gz" | "$PCOL" shell "$u/labels.pb.gz" >"$tmp/o" 2>"$tmp/e" || fail "shell URL"
grep -q 'Showing nodes accounting for 0, 0% of 0 total' "$tmp/o" || { cat "$tmp/o" "$tmp/e"; fail "shell: --base URL in a line"; }
# the shell's --seconds is its inputs'; a line's URL takes the line's own
: >"$tmp/requests.log"
printf 'top1 --base %s --seconds 3\ntop1 --base %s\n' "$hp/heap.pb" "$hp/cpu.pb.gz" |
  "$PCOL" shell "$hp/labels.pb.gz" --seconds 2 >"$tmp/o" 2>"$tmp/e" || { cat "$tmp/e"; fail "shell HOST:PORT --seconds"; }
[ "$(cat "$tmp/requests.log")" = "$(printf '%s\n' '/labels.pb.gz?seconds=2' '/heap.pb?seconds=3' /cpu.pb.gz)" ] ||
  { cat "$tmp/requests.log" "$tmp/e"; fail "shell: --seconds not the session's inputs' and each line's own"; }
clean "the shell"
# a fetch killed midway leaves nothing behind
PCOL_FETCH_TIMEOUT=60 "$PCOL" top "$u/slow" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do [ -n "$(ls -A "$TMPDIR")" ] && break; sleep 0.1; done
[ -n "$(ls -A "$TMPDIR")" ] || fail "no temporary file while fetching"
kill -TERM "$pid"
wait "$pid" 2>/dev/null
clean "a fetch killed"
echo "t_fetch: ok"
