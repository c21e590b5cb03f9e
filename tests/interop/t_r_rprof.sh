#!/usr/bin/env bash
# Rprof against R itself (R >= 4): real profiles of R workloads
# (tests/r/workloads.R) and every file in ../shared/testdata/rprof/ must
#  1. pack and come back from `unpack --to rprof` byte for byte;
#  2. give `pcol top` the same self/total as summaryRprof, by function and by
#     line (tests/r/compare_top.R names the known differences), and for
#     memory profiles the same mem.total (tests/r/compare_mem.R);
#  3. and an Rprof file exported from a pprof profile must be read by
#     summaryRprof without error.
# Exit 77 (skip) when Rscript is absent.
set -u
if ! command -v Rscript >/dev/null 2>&1; then
  echo "SKIP: R not installed (Rscript not found)"; exit 77
fi
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
W=$BUILD/interop-rprof
rm -rf "$W" && mkdir -p "$W/gen"
fail=0
err() { echo "FAIL: $*"; fail=1; }

Rscript tests/r/workloads.R "$W/gen" >"$W/workloads.log" 2>&1 || {
  cat "$W/workloads.log"; err "R workloads failed"; }

inputs=("$W"/gen/*.out)
# regular files only: a stray directory or note in the test data is not a profile
if [ -d "$TD/rprof" ]; then
  for f in "$TD"/rprof/*; do [ -f "$f" ] && [ "${f%.md}" = "$f" ] && inputs+=("$f"); done
else echo "note: $TD/rprof absent, only generated profiles"; fi

# `pcol top` may not exist yet in this tree: compare only when it runs
have_top=0
if "$PCOL" top --help >/dev/null 2>&1; then have_top=1; else echo "note: pcol top unavailable, summaryRprof comparison skipped"; fi

n=0
for f in "${inputs[@]}"; do
  b=$(basename "$f")
  "$PCOL" pack "$f" -o "$W/$b.pcol" || { err "pack $b"; continue; }
  "$PCOL" validate --full "$W/$b.pcol" >/dev/null || err "validate $b"
  "$PCOL" unpack "$W/$b.pcol" --to rprof -o "$W/$b.back" || { err "unpack $b"; continue; }
  cmp -s "$f" "$W/$b.back" || err "round trip of $b is not byte-identical"
  if [ $have_top = 1 ]; then
    "$PCOL" top "$W/$b.pcol" --value samples --format csv >"$W/$b.fun.csv" &&
    "$PCOL" top "$W/$b.pcol" --value samples --by line --format csv >"$W/$b.line.csv" ||
      { err "pcol top $b"; continue; }
    Rscript tests/r/compare_top.R "$f" "$W/$b.fun.csv" "$W/$b.line.csv" || err "top vs summaryRprof: $b"
    if head -1 "$f" | grep -q 'line profiling'; then # pcol list's source lines = summaryRprof's by.line
      "$PCOL" list "$W/$b.pcol" . --by file --value samples --format csv >"$W/$b.list.csv" 2>/dev/null ||
        : >"$W/$b.list.csv" # (no line has a file: R's table has no line either)
      if [ -s "$W/$b.list.csv" ]; then
        Rscript tests/r/compare_top.R "$f" "$W/$b.fun.csv" "$W/$b.line.csv" "$W/$b.list.csv" ||
          err "list --by file vs summaryRprof(lines = \"show\"): $b"
      fi
      # pcol list by function = go tool pprof -list on the pprof export, with
      # the source present (workload_code.R): the same blocks, lines and cum.
      # flat is summaryRprof's self rule on Rprof (a sample's innermost line
      # with a srcref: R's by.line, checked above), where pprof gives it to
      # the leaf function without a srcref ("No source information for
      # rnorm"), so the flat column is left out here
      case $f in "$W"/gen/*)
        if command -v go >/dev/null 2>&1 && "$PCOL" unpack "$W/$b.pcol" --to pprof -o "$W/$b.list.pb.gz"; then
          nocol() { grep -v '^No source information for ' | sed -E 's/^ *[^ ]+ +([^ ]+ \(flat, cum\))/\1/; s/^(.{10}) (.{10} +[0-9]+:)/\2/'; }
          "$PCOL" list "$W/$b.pcol" . --value samples 2>&1 | nocol >"$W/$b.list.pc"
          HOME=$W go tool pprof -sample_index=samples -list . "$W/$b.list.pb.gz" 2>/dev/null | nocol >"$W/$b.list.go"
          if ! grep -q '^ROUTINE' "$W/$b.list.go" || ! cmp -s "$W/$b.list.pc" "$W/$b.list.go"; then
            err "list . vs go tool pprof -list . on the pprof export: $b (< pcol, > pprof)"
            diff "$W/$b.list.pc" "$W/$b.list.go" | head -10
          fi
        fi ;;
      esac
    fi
    # the time rule: interval x ticks per segment, in top and in the pprof
    # export; it is an Rprof source's default value (summaryRprof shows seconds)
    "$PCOL" top "$W/$b.pcol" --format csv >"$W/$b.time.csv" || err "pcol top $b"
    "$PCOL" top "$W/$b.pcol" --value cpu --format csv | cmp -s - "$W/$b.time.csv" ||
      err "the default value of $b is not its time (--value cpu)"
    gotop=()
    if command -v go >/dev/null 2>&1 && "$PCOL" unpack "$W/$b.pcol" --to pprof -o "$W/$b.pb.gz" &&
      go tool pprof -top -sample_index=cpu -unit=ns "$W/$b.pb.gz" >"$W/$b.gotop" 2>/dev/null; then gotop=("$W/$b.gotop"); fi
    Rscript tests/r/compare_time.R "$f" "$W/$b.time.csv" "${gotop[@]}" || err "time per segment: $b"
    if head -1 "$f" | grep -q '^memory profiling'; then
      "$PCOL" top "$W/$b.pcol" --value rprof.alloc --format csv >"$W/$b.alloc.csv" ||
        err "pcol top --value rprof.alloc $b"
      Rscript tests/r/compare_mem.R "$f" "$W/$b.alloc.csv" || err "mem.total vs summaryRprof: $b"
    fi
  fi
  n=$((n + 1))
done
echo "rprof round trips: $n files"

# R reads what we write from a pprof profile
pb="$TD/pprof/go-cpu-inline-small.pb.gz"
if [ -f "$pb" ] && "$PCOL" pack "$pb" -o "$W/pprof.pcol" 2>/dev/null; then
  "$PCOL" unpack "$W/pprof.pcol" --to rprof -o "$W/pprof.out" || err "unpack pprof --to rprof"
  Rscript -e 'a <- commandArgs(TRUE); s <- summaryRprof(a[1], lines = "show"); t <- summaryRprof(a[1])
    stopifnot(nrow(t$by.self) > 0, t$sampling.time > 0)
    cat(sprintf("summaryRprof read the pprof export: %d functions, %.2f s\n", nrow(t$by.total), t$sampling.time))' \
    "$W/pprof.out" || err "summaryRprof cannot read the Rprof export of $pb"
else
  echo "note: pprof import unavailable or $pb absent: pprof -> Rprof -> R check skipped"
fi
exit $fail
