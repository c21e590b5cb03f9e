#!/usr/bin/env bash
# CLI: regressions of the layers work (issue 12) — one selection parser, one
# frame-naming rule, error messages that are not garbled, the version from
# the library — and tests/check_layers.sh catching a forbidden edge.
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_layers: FAIL: $*" >&2; exit 1; }
sum() { awk '{s += $NF} END {print s + 0}'; }

# 1. unpack --from-time/--to-time select the same samples as fold --from/--to
#    (they were parsed by hand and silently ignored).
"$PCOL" pack examples/demo.out -o "$tmp/demo.pcol" || fail pack
all=$("$PCOL" fold "$tmp/demo.pcol" | sum)
for r in "0 0.05" "0.02 0.3" "0.1 10"; do
  set -- $r
  want=$("$PCOL" fold "$tmp/demo.pcol" --value samples --from "$1" --to "$2" | sum) # the export's counts (§4.2)
  "$PCOL" unpack "$tmp/demo.pcol" --to collapsed --from-time "$1" --to-time "$2" -o "$tmp/part.txt" ||
    fail "unpack --from-time $1 --to-time $2"
  got=$(sum < "$tmp/part.txt")
  [ "$got" = "$want" ] || fail "unpack --from-time $1 --to-time $2 sums to $got, fold --from/--to to $want"
done
part=$("$PCOL" fold "$tmp/demo.pcol" --from 0 --to 0.05 | sum)
[ "$part" -lt "$all" ] || fail "the range 0..0.05 should be a real subset ($part of $all)"
"$PCOL" unpack "$tmp/demo.pcol" --to collapsed --from-time x -o "$tmp/x" 2>"$tmp/err"
[ $? = 2 ] || fail "a bad --from-time is a usage error"
grep -q -- '--from-time wants seconds' "$tmp/err" || fail "the message names --from-time: $(cat "$tmp/err")"

# 2. one frame, one name: a top-level srcref of a 600-byte file path is named
#    "FILE:LINE" whole by fold and by the collapsed exporter (fold cut it at
#    500 bytes).
long=$(printf '/%0600d.R' 0)
{ echo 'line profiling: sample.interval=20000'; echo "#File 1: $long"
  echo '"f" "g" 1#3 '; echo '1#4 "h" 1#2 '; } > "$tmp/long.out"
"$PCOL" fold "$tmp/long.out" --value samples | sort > "$tmp/fold.txt" || fail "fold of the long-path profile"
"$PCOL" unpack "$tmp/long.out" --to collapsed --value samples -o - | sort > "$tmp/coll.txt" || fail "unpack --to collapsed"
cmp -s "$tmp/fold.txt" "$tmp/coll.txt" || { diff "$tmp/fold.txt" "$tmp/coll.txt" | cut -c1-80; fail "fold and unpack --to collapsed name frames differently"; }
grep -q "^$long:3;g;f 1\$" "$tmp/fold.txt" || fail "the frame is not named FILE:LINE with the whole path"

# 3. a message extended with its cause is not garbled (pcol_error_set was
#    formatting err->message into itself)
"$PCOL" top "$tmp/demo.pcol" --value rprof.alloc 2>"$tmp/err"; [ $? = 1 ] || fail "rprof.alloc on a profile without memory"
[ "$(grep -o 'needs Rprof memory profiling' "$tmp/err" | wc -l)" = 1 ] || fail "garbled message: $(cat "$tmp/err")"
grep -q "(no value type 'vsize.small'" "$tmp/err" || fail "the cause is missing: $(cat "$tmp/err")"

# 4. --version prints the library's version (pcol_version_string) and the
#    header's, which agree
v=$(sed -n 's/^#define PCOL_VERSION_STRING "\(.*\)"/\1/p' include/pcol.h)
"$PCOL" --version | grep -q "^pcol $v (library $v, format 1\.[0-9]*)\$" || fail "--version: $("$PCOL" --version)"

# 5. check_layers.sh passes on the build and fails on a forbidden edge
obj="$BUILD/obj"
if [ -d "$obj/lib/core" ] && command -v nm >/dev/null; then
  bash tests/check_layers.sh "$obj" >/dev/null || fail "check-layers fails on the build itself"
  cc=${CC:-cc}
  edge() { # FOLDER SYMBOL: an object in FOLDER calling SYMBOL
    rm -rf "$tmp/obj"; cp -r "$obj" "$tmp/obj"; mkdir -p "$tmp/obj/$1"
    printf 'int %s(void);\nint bad_edge(void) { return %s(); }\n' "$2" "$2" > "$tmp/bad.c"
    $cc -c "$tmp/bad.c" -o "$tmp/obj/$1/bad_edge.o" || fail "cannot compile the edge probe"
    bash tests/check_layers.sh "$tmp/obj" > "$tmp/layers.txt" 2>&1
  }
  edge lib/convert/rprof pcol_top_compute && fail "a converter calling the query level passed"
  grep -q 'lib/convert/rprof/bad_edge (convert:rprof) -> lib/query/.*pcol_top_compute' "$tmp/layers.txt" || fail "not named: $(cat "$tmp/layers.txt")"
  edge lib/core pcol_import_path && fail "core calling a converter passed"
  edge lib/core pcol_value_resolve && fail "core calling the query level passed"
  edge lib/convert/pprof pcol_import_rprof && fail "one format calling another passed"
  edge tools pcol_buf_append && fail "a tool calling an internal function passed"
  edge lib/convert/perun pcol_b_sample || fail "a converter calling core was refused: $(cat "$tmp/layers.txt")"
else
  echo "t_layers: no objects under $obj: check_layers probes skipped"
fi
exit 0
