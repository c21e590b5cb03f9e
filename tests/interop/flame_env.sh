# flame_env.sh — sourced by t_flame_labels.sh and t_flame_zoom.sh (`pcol
# flame` SVGs checked by a script in headless Chromium), with T the test's
# name: sets PCOL, BUILD, TD (the test data), here (this folder), fail
# (naming $T), BROWSER (Chromium's binary) and tmp (removed at exit); exits
# 77 (skip) without Chromium.
#   browse URL ARGS...: Chromium on URL (a fresh profile each time; bounded
#     in time; its messages in $tmp/chromium.log)
#   with_script SVG OUT: SVG with the script read from stdin run in it
#   judge SVG WHAT WANT: res, the text of SVG's <text id="result"> once its
#     script ran, said as WHAT; a failure without one, or without WANT in it
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
BROWSER=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$BROWSER" ] || { echo "$T: SKIP: chromium not installed" >&2; exit 77; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$T: FAIL: $*" >&2; exit 1; }
browse() {
  local url=$1; shift
  timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" "$@" "$url" 2>"$tmp/chromium.log"
}
with_script() {
  { sed '$d' "$1"; printf '<script type="text/ecmascript"><![CDATA[\n'; cat; printf ']]></script>\n</svg>\n'; } > "$2"
}
judge() {
  res=$(browse "file://$1" --dump-dom | grep -o '<text id="result">[^<]*' | sed 's/.*>//')
  [ -n "$res" ] || { cat "$tmp/chromium.log" >&2; fail "$2: no verdict from the browser"; }
  echo "$T: $2: $res" >&2
  case "$res" in *"$3"*) ;; *) fail "$2: $res" ;; esac
}
