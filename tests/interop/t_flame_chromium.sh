#!/usr/bin/env bash
# `pcol flame` output renders in a real browser: headless Chromium takes a
# screenshot of the SVG (plain and --diff), and the picture is not blank.
# Exit 77 (skip) when Chromium is absent and cannot be installed.
set -u
PCOL=${PCOL:-build/bin/pcol}
BROWSER=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$BROWSER" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "t_flame_chromium: installing chromium" >&2
  (apt-get install -y chromium >/dev/null 2>&1 || (apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1)) || true
  BROWSER=$(command -v chromium || true)
fi
if [ -z "$BROWSER" ]; then
  echo "t_flame_chromium: SKIP: chromium is not installed and cannot be installed" >&2
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_flame_chromium: FAIL: $*" >&2; exit 1; }

# Two small Rprof profiles written here (the project's own fixtures).
{
  echo 'sample.interval=20000'
  for i in $(seq 1 30); do echo '"inner" "work" "main" '; done
  for i in $(seq 1 12); do echo '"parse" "read" "main" '; done
  for i in $(seq 1 5); do echo '"<GC>" "alloc" "work" "main" '; done
} > "$tmp/base.out"
{
  echo 'sample.interval=20000'
  for i in $(seq 1 10); do echo '"inner" "work" "main" '; done
  for i in $(seq 1 40); do echo '"parse" "read" "main" '; done
  for i in $(seq 1 5); do echo '"<GC>" "alloc" "work" "main" '; done
} > "$tmp/new.out"

"$PCOL" flame "$tmp/base.out" -o "$tmp/flame.svg" --title "pcol flame test" || fail "pcol flame failed"
"$PCOL" flame --diff "$tmp/base.out" "$tmp/new.out" -o "$tmp/diff.svg" || fail "pcol flame --diff failed"
for s in flame diff; do
  grep -q '<svg' "$tmp/$s.svg" || fail "$s.svg is not an SVG"
  grep -q 'onload="init(evt)"' "$tmp/$s.svg" || fail "$s.svg has no script hook"
  grep -q '<title>⁨main⁩ (' "$tmp/$s.svg" || fail "$s.svg has no hover text for main"
done
grep -q 'rgb(255,' "$tmp/diff.svg" || fail "diff.svg shows no growth colour"
grep -q ',255)"' "$tmp/diff.svg" || fail "diff.svg shows no shrink colour"

# A blank page of the same size, to compare against.
printf '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="200"></svg>\n' > "$tmp/blank.svg"

shot() { # svg png
  timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --window-size=1200,200 --screenshot="$2" "file://$1" \
    >"$tmp/chromium.log" 2>&1
  [ -s "$2" ] || { cat "$tmp/chromium.log" >&2; fail "no screenshot of $1"; }
}
shot "$tmp/blank.svg" "$tmp/blank.png"
shot "$tmp/flame.svg" "$tmp/flame.png"
shot "$tmp/diff.svg" "$tmp/diff.png"
b=$(stat -c %s "$tmp/blank.png"); f=$(stat -c %s "$tmp/flame.png"); d=$(stat -c %s "$tmp/diff.png")
echo "t_flame_chromium: screenshot sizes: blank $b, flame $f, diff $d bytes" >&2
# frames, colours and text compress far worse than an empty page
[ "$f" -gt 5000 ] && [ "$f" -gt $((b * 3)) ] || fail "flame screenshot looks blank ($f bytes)"
[ "$d" -gt 5000 ] && [ "$d" -gt $((b * 3)) ] || fail "diff screenshot looks blank ($d bytes)"
exit 0
