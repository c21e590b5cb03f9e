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

# level of an object path relative to $obj (without .o)
level() {
  case "$1" in
    lib/core/*) echo core ;;
    lib/query/*) echo query ;;
    lib/convert/detect) echo convert:detect ;;
    lib/convert/*/*) f=${1#lib/convert/}; echo "convert:${f%%/*}" ;;
    lib/convert/*) echo convert:common ;;
    gen/opentelemetry/*) echo convert:otlp ;;  # OTLP's generated code belongs to otlp
    gen/*) echo convert:pprof ;;     # protobuf-c's generated code belongs to pprof
    tools/*) echo tools ;;
    *) echo other ;;
  esac
}
allowed() { # from to
  local a=$1 b=$2
  [ "$a" = "$b" ] && return 0
  case "$a>$b" in
    core\>core|query\>core|query\>query|tools\>*) return 0 ;;
    convert:*\>core) return 0 ;;
    convert:detect\>convert:*) return 0 ;;
    convert:*\>convert:common) return 0 ;;
  esac
  return 1
}

declare -A def
mapfile -t objs < <(cd "$obj" && find lib gen tools -name '*.o' 2>/dev/null | sort)
for o in "${objs[@]}"; do
  f=${o%.o}
  while read -r _ t s; do
    case "$t" in [TDRBVW]) def[$s]=$f ;; esac
  done < <(nm -g --defined-only "$obj/$o")
done

# the public API: symbols declared in include/pcol.h
root=$(cd "$(dirname "$0")/.." && pwd)
declare -A public
while read -r s; do public[$s]=1; done < <(grep -o '\bpcol_[a-z0-9_]*\s*(' "$root/include/pcol.h" | tr -d '( ' | sort -u)

bad=0
for o in "${objs[@]}"; do
  f=${o%.o}; from=$(level "$f")
  while read -r _ s; do
    d=${def[$s]:-}
    [ -z "$d" ] && continue
    to=$(level "$d")
    if [ "$from" = tools ]; then
      case "$to" in tools) continue ;; esac
      [ -n "${public[$s]:-}" ] && continue
      echo "layer: $f (tools) -> $d ($to): $s is not in include/pcol.h"; bad=1; continue
    fi
    allowed "$from" "$to" || { echo "layer: $f ($from) -> $d ($to): $s"; bad=1; }
  done < <(nm -u "$obj/$o" | awk '{print "U", $NF}')
done
if [ $bad = 0 ]; then echo "check-layers: ok (${#objs[@]} objects: core <- query, core <- convert/<format>, pcol.h <- tools)"; fi
exit $bad
