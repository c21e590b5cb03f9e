#!/usr/bin/env bash
# Flame graph zoom in a real browser (issue 13): headless Chromium loads
# `pcol flame` SVGs of real profiles, clicks frames and checks that every
# ancestor stays (dimmed) and every descendant stays (flame_zoom_check.js),
# also in icicle graphs (--inverted); and search (issue 15): highlighted
# frames and "Matched: N%" (flame_search_check.js), N against pprof -focus.
# A screenshot of a zoomed graph is kept in $BUILD/artifacts for a person.
# Exit 77 (skip) without Chromium.
set -u
T=t_flame_zoom
. "$(dirname "$0")/flame_env.sh"

inputs="examples/demo.out"
for f in "$TD/rprof/proftools__Rprof-rec.out" "$TD/pprof/go-cpu-inline-small.pb.gz" \
         "$TD/pprof/java-cpu-async-profiler.pb.gz" "$TD/pprof/nodejs-wall.pb.gz"; do
  [ -f "$f" ] && inputs="$inputs $f"
done
total=0
for f in $inputs; do
  b=$(basename "$f")
  "$PCOL" flame "$f" -o "$tmp/$b.svg" || fail "pcol flame $f"
  sed "s/MAXCLICKS/150/" "$here/flame_zoom_check.js" | with_script "$tmp/$b.svg" "$tmp/$b.check.svg"
  tail -1 "$tmp/$b.svg" | grep -q '^</svg>$' || fail "$b.svg does not end with </svg>"
  judge "$tmp/$b.check.svg" "$b" " bad=0 "
  clicks=${res#*clicks=}; total=$((total + ${clicks%% *}))
done
[ "$total" -gt 50 ] || fail "only $total zooms checked"

# an icicle graph (--inverted) zooms the same way
for f in $inputs; do
  b=$(basename "$f")
  "$PCOL" flame "$f" --inverted --palette blue -o "$tmp/$b.inv.svg" || fail "pcol flame --inverted $f"
  grep -q 'fill="rgb(' "$tmp/$b.inv.svg" || fail "$b: no frames"
  sed "s/MAXCLICKS/40/" "$here/flame_zoom_check.js" | with_script "$tmp/$b.inv.svg" "$tmp/$b.inv.check.svg"
  judge "$tmp/$b.inv.check.svg" "$b --inverted" " bad=0 "
done

# search (the page's search() and Ctrl-F/Escape): the frames highlighted and
# "Matched: N%" are checked in the browser (flame_search_check.js) against
# pprof's total as `pcol top --format json` gives it, and N against go tool
# pprof -focus with the same expression (the share of the samples with a
# matching frame), when Go is there.  Under a filter that removes samples
# (SF: pcol's filter options, --focus, --tag; review 15 F1) N is of the same
# total as the hover's shares, so each RE, naming one function, is checked
# against pcol top's cum% of it under the same filter; SFGO, go tool
# pprof's options for the same filter (a -tagfocus, not a -focus: the
# search's own -focus joins it), checks N against go too.
SF=() SFGO=()
search_check() { # FILE RE...
  local f=$1 b
  shift
  b=$(basename "$f")${SF[0]+.$(printf '%s' "${SF[*]}" | md5sum | cut -c1-8)}
  local list="" r
  for r in "$@"; do list="$list'$(printf '%s' "$r" | sed 's/\\/\\\\/g')',"; done
  "$PCOL" flame "$f" --minwidth 0 "${SF[@]}" -o "$tmp/$b.s.svg" || fail "pcol flame --minwidth 0 ${SF[*]} $f"
  local total
  total=$("$PCOL" top "$f" "${SF[@]}" --format json | head -1 | sed -n 's/.*"total":\(-\{0,1\}[0-9][0-9]*\),.*/\1/p')
  [ -n "$total" ] || fail "pcol top ${SF[*]} $f --format json: no total"
  { printf 'var SEARCH_RES = [%s], SEARCH_TOTAL = %s;\n' "${list%,}" "$total"
    sed "s/REGEXES/SEARCH_RES/" "$here/flame_search_check.js"; } | with_script "$tmp/$b.s.svg" "$tmp/$b.s.check.svg"
  judge "$tmp/$b.s.check.svg" "search $b ${SF[*]}" " bad=0 "
  local shares=${res#*shares=}
  shares=${shares%% first=*}
  for r in "$@"; do
    local got want
    got=$(printf '%s\n' "$shares" | tr ';' '\n' | grep -F "$r=" | head -1 | sed 's/.*=//')
    if [ ${#SF[@]} -gt 0 ]; then # the one function RE names, its cum% in pcol top with the filter
      want=$("$PCOL" top "$f" "${SF[@]}" --format tsv --node-fraction 0 | RE=$r awk -F'\t' 'NR > 1 && $6 ~ ENVIRON["RE"] { n++; c = $5 } END { if (n == 1) print c }')
      [ -n "$want" ] || fail "search $b '$r' ${SF[*]}: not one function of pcol top matches"
      awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (b + 0 <= 0 || b + 0 >= 100 || d > 0.0051 || d < -0.0051) exit 1 }' ||
        fail "search $b '$r' ${SF[*]}: Matched $got%, pcol top's cum% $want%"
      echo "t_flame_zoom: search $b '$r' ${SF[*]}: $got% = pcol top's cum% $want%" >&2
      [ ${#SFGO[@]} -gt 0 ] || continue
    fi
    command -v go >/dev/null 2>&1 || continue
    want=$(HOME=$tmp PPROF_BINARY_PATH=/nonexistent go tool pprof -symbolize=none -top -nodefraction=0 \
      "${SFGO[@]}" -focus="$r" "$f" 2>/dev/null | sed -n 's/^Showing nodes accounting for [^,]*, \([0-9.]*\)% of.*/\1/p')
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (b == "" || d > 0.006 || d < -0.006) exit 1 }' ||
      fail "search $b '$r' ${SF[*]}: Matched $got%, go tool pprof${SFGO[*]:+ ${SFGO[*]}} -focus keeps $want%"
    echo "t_flame_zoom: search $b '$r' ${SF[*]}: $got% = pprof${SFGO[*]:+ ${SFGO[*]}} -focus $want%" >&2
  done
}
g=$TD/pprof/go-cpu-inline-small.pb.gz
[ -f "$g" ] && search_check "$g" mapassign '^main\.' 'Abs|growWork' 'runtime\.(mallocgc|evacuate)' \
  '(?i)MATH\.abs' '\Qmath.Abs\E' '[[:alpha:]]+\.Abs$' '(?i)^MAIN\.' # Go's syntax, not JavaScript's (review 22 F1)
j=$TD/pprof/java-cpu-async-profiler.pb.gz
[ -f "$j" ] && search_check "$j" 'java/util' 'Thread\.run'
# under a filter (review 15 F1: "Matched" of the root's value read 100% under
# --focus on the matched function, its hover and pcol top 22.16%)
SF=(--focus busyLoop --ignore mapiter)
[ -f "$g" ] && search_check "$g" '^main\.busyLoop$' '^runtime\.mapassign_fast64$' '^math\.Abs$'
l=$TD/pprof/go-cpu-string-labels.pb.gz
SF=(--tag 'function=^fast$') SFGO=(-tagfocus='function=^fast$')
[ -f "$l" ] && search_check "$l" '^main\.work$' 'asyncPreempt'
SF=() SFGO=()

# a picture for a person: the Java profile zoomed into its widest frame at depth 3
mkdir -p "$BUILD/artifacts"
last=$(echo $inputs | awk '{print $NF}'); b=$(basename "$last")
{ printf 'window.addEventListener("load", function () {\n'
  printf '  var gs = document.getElementById("frames").getElementsByTagName("g"), best = null;\n'
  printf '  for (var i = 0; i < gs.length; i++) if (gs[i].getAttribute("data-d") === "3" &&\n'
  printf '      (!best || parseFloat(gs[i].getAttribute("data-w")) > parseFloat(best.getAttribute("data-w")))) best = gs[i];\n'
  printf '  if (best) zoom(best); });\n'; } | with_script "$tmp/$b.svg" "$tmp/zoomed.svg"
browse "file://$tmp/zoomed.svg" --window-size=1200,700 --screenshot="$BUILD/artifacts/flame-zoom.png" >/dev/null
[ -s "$BUILD/artifacts/flame-zoom.png" ] && echo "t_flame_zoom: screenshot: $BUILD/artifacts/flame-zoom.png" >&2
# and one searched, inverted (an icicle), for a person too
"$PCOL" flame "$last" --inverted -o "$tmp/icicle.svg" || fail "pcol flame --inverted"
printf 'window.addEventListener("load", function () { search("router"); });\n' | with_script "$tmp/icicle.svg" "$tmp/icicle.s.svg"
browse "file://$tmp/icicle.s.svg" --window-size=1200,700 --screenshot="$BUILD/artifacts/flame-search-icicle.png" >/dev/null
[ -s "$BUILD/artifacts/flame-search-icicle.png" ] && echo "t_flame_zoom: screenshot: $BUILD/artifacts/flame-search-icicle.png" >&2
echo "t_flame_zoom: $total zooms checked" >&2
exit 0
