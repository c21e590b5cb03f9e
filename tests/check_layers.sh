#!/usr/bin/env bash
# check_layers.sh OBJDIR — fails when an object of libpcol or of the CLI
# calls a function of a level it may not use (lib/README.md):
#   core     -> core
#   query    -> core, query
#   convert  -> core, its own format folder; lib/convert/detect.o (the
#               dispatcher, the only file that names every format) -> any
#               converter
#   tools    -> the library's public functions only (include/pcol.h)
# The edges come from the objects themselves: `nm -u` of each object matched
# with `nm --defined-only` of every other, so a call hidden behind a macro or
# an extern declaration is caught as well as an #include.
set -euo pipefail
obj=${1:-build/obj}
[ -d "$obj/lib" ] || { echo "check-layers: no objects under $obj/lib" >&2; exit 2; }

# Two nm runs over every object (not two per object, and no shell loop per
# symbol: the check ran 7 times in t_layers.sh at ~14 s each); awk joins
# each undefined symbol with the object that defines it.
mapfile -t objs < <(cd "$obj" && find lib gen tools -name '*.o' 2>/dev/null | sort)
root=$(cd "$(dirname "$0")/.." && pwd)
# the public API: symbols declared in include/pcol.h
grep -o '\bpcol_[a-z0-9_]*\s*(' "$root/include/pcol.h" | tr -d '( ' | sort -u > "${TMPDIR:-/tmp}/pcol-layers-public.$$"
trap 'rm -f "${TMPDIR:-/tmp}/pcol-layers-public.$$"' EXIT
bad=0
{
  (cd "$obj" && nm -A -g --defined-only "${objs[@]}") | awk '{print "D", $1, $(NF-1), $NF}'
  (cd "$obj" && nm -A -u "${objs[@]}") | awk '{print "U", $1, $NF}'
} | awk -v pubfile="${TMPDIR:-/tmp}/pcol-layers-public.$$" '
  function level(f,   g) {
    if (f ~ /^lib\/core\//) return "core"
    if (f ~ /^lib\/query\//) return "query"
    if (f == "lib/convert/detect") return "convert:detect"
    if (f ~ /^lib\/convert\/[^\/]+\//) { g = f; sub(/^lib\/convert\//, "", g); sub(/\/.*/, "", g); return "convert:" g }
    if (f ~ /^lib\/convert\//) return "convert:common"
    if (f ~ /^gen\/opentelemetry\//) return "convert:otlp"   # the OTLP generated code belongs to otlp
    if (f ~ /^gen\//) return "convert:pprof"   # protobuf-c generated code belongs to pprof
    if (f ~ /^tools\//) return "tools"
    return "other"
  }
  function allowed(a, b) {
    if (a == b) return 1
    if (a == "core" && b == "core") return 1
    if (a == "query" && (b == "core" || b == "query")) return 1
    if (a ~ /^convert:/ && b == "core") return 1
    if (a == "convert:detect" && b ~ /^convert:/) return 1
    if (a ~ /^convert:/ && b == "convert:common") return 1
    return 0
  }
  BEGIN { while ((getline s < pubfile) > 0) public[s] = 1 }
  { f = $2; sub(/\.o:.*$/, "", f) }
  $1 == "D" { if ($3 ~ /^[TDRBVW]$/) def[$4] = f; next }
  $1 == "U" { nu++; uf[nu] = f; us[nu] = $3 }
  END {
    bad = 0
    for (i = 1; i <= nu; i++) {
      s = us[i]; d = def[s]
      if (d == "") continue
      from = level(uf[i]); to = level(d)
      if (from == "tools") {
        if (to == "tools" || (s in public)) continue
        print "layer: " uf[i] " (tools) -> " d " (" to "): " s " is not in include/pcol.h"; bad = 1; continue
      }
      if (!allowed(from, to)) { print "layer: " uf[i] " (" from ") -> " d " (" to "): " s; bad = 1 }
    }
    exit bad
  }' || bad=1
# The error rule of include/pcol.h: a function that fails fills its
# pcol_error where it fails.  A caller that patches a message in after the
# fact ("if (!err->message[0]) pcol_error_set(...)") hides a callee that
# broke the rule, so the pattern may not come back (issue 45).  Choosing
# between err->message and pcol_strerror when printing is fine.
if patched=$(cd "$root" && grep -rnE '!\s*\(?[^()!;=]*message\[0\]|message\[0\].*pcol_error_set' \
               --include='*.c' --include='*.h' lib tools bindings); then
  echo "$patched" | sed 's/^/error rule: a message patched in after the fact: /'
  bad=1
fi
if [ $bad = 0 ]; then echo "check-layers: ok (${#objs[@]} objects: core <- query, core <- convert/<format>, pcol.h <- tools)"; fi
exit $bad
