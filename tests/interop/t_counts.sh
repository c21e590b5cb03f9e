#!/usr/bin/env bash
# One answer everywhere: a pprof sample with samples/count N is N samples in
# every export (THE count rule, lib/core/count.c; doc/mappings.md §0).
# For pprof profiles whose rows carry counts > 1, judged by the reference
# tools of the source and of the target:
#  - Rprof export read by summaryRprof: sampling.time = go tool pprof's
#    samples total x period, and by.self per function = pprof's flat
#    samples x period (the period is the Rprof interval);
#  - collapsed export (--value samples; without it, the default type as
#    fold) summed flamegraph-style: the total, and per leaf
#    function the flat samples of go tool pprof.
# (speedscope is judged in t_speedscope.sh.)  Exit 77 without R or Go.
set -u
command -v Rscript >/dev/null 2>&1 || { echo "SKIP: R not installed"; exit 77; }
command -v go >/dev/null 2>&1 || { echo "SKIP: Go not installed"; exit 77; }
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
inputs=()
for f in "$TD"/pprof/go-cpu-inline-small.pb.gz "$TD"/pprof/go-cpu-string-labels.pb.gz \
         "$TD"/ext/pprof/go-benchmark-cpu.pb.gz "$TD"/ext/pprof/go-cpu-span-id-labels.pb.gz; do
  [ -f "$f" ] && inputs+=("$f")
done
[ ${#inputs[@]} -gt 0 ] || { echo "SKIP: no pprof test data in $TD"; exit 77; }

for f in "${inputs[@]}"; do
  b=$(basename "$f")
  # the reference: flat samples per function, and the period in seconds
  go tool pprof -symbolize=none -top -nodecount=1000000 -nodefraction=0 -sample_index=samples "$f" \
    2>/dev/null >"$tmp/top.txt"
  # pprof -top marks a node of inlined calls " (inline)": the function is the
  # same (a function both inlined and not is two pprof nodes: summed here)
  awk '/^ *flat/ {on=1; next} on && NF >= 6 {n=$6; for (i=7;i<=NF;i++) n=n" "$i; sub(/ \(inline\)$/, "", n)
       if ($1+0) s[n]+=$1} END{for (x in s) print x "\t" s[x]}' "$tmp/top.txt" | sort >"$tmp/ref_flat.tsv"
  total=$(sed -n 's/.* of \([0-9]*\) total.*/\1/p' "$tmp/top.txt")
  period=$(go tool pprof -symbolize=none -raw "$f" 2>/dev/null | sed -n 's/^Period: \([0-9]*\)$/\1/p')
  [ -n "$total" ] && [ -n "$period" ] || { echo "FAIL $b: cannot read go tool pprof's answer"; fail=1; continue; }
  rows=$("$PCOL" top "$f" --value weight -n 1 2>/dev/null | sed -n 's/.* of \([0-9]*\) total.*/\1/p')
  [ "$rows" != "$total" ] || echo "note: $b has no row with a count above 1"

  # collapsed, summed like flamegraph.pl
  "$PCOL" unpack "$f" --to collapsed --value samples -o "$tmp/c.txt" || { echo "FAIL $b: collapsed export"; fail=1; continue; }
  got=$(awk '{s+=$NF} END{printf "%.0f", s}' "$tmp/c.txt")
  [ "$got" = "$total" ] || { echo "FAIL $b: collapsed total $got, go tool pprof $total samples"; fail=1; }
  awk '{c=$NF; $NF=""; sub(/ $/, ""); k=split($0, fr, ";"); s[fr[k]]+=c} END{for (x in s) print x "\t" s[x]}' \
    "$tmp/c.txt" | sort >"$tmp/c_flat.tsv"
  if ! diff "$tmp/ref_flat.tsv" "$tmp/c_flat.tsv" >"$tmp/d"; then
    echo "FAIL $b: collapsed leaf counts differ from go tool pprof -top flat (< pprof, > collapsed):"
    head -10 "$tmp/d"; fail=1
  fi

  # Rprof, read by summaryRprof
  "$PCOL" unpack "$f" --to rprof -o "$tmp/r.out" || { echo "FAIL $b: rprof export"; fail=1; continue; }
  if ! Rscript -e '
    a <- commandArgs(TRUE); s <- summaryRprof(a[1])
    ref <- read.delim(a[2], header = FALSE, col.names = c("name", "flat"), quote = "", colClasses = c("character", "numeric"))
    total <- as.numeric(a[3]); period <- as.numeric(a[4]) / 1e9
    ok <- TRUE
    if (abs(s$sampling.time - total * period) > 1e-6) {
      cat(sprintf("sampling.time %.6f, go tool pprof %d x %.6f s\n", s$sampling.time, total, period)); ok <- FALSE }
    bs <- s$by.self; got <- setNames(bs$self.time, gsub("^\"|\"$", "", rownames(bs)))
    for (i in seq_len(nrow(ref))) {
      g <- got[ref$name[i]]; w <- ref$flat[i] * period
      if (is.na(g) || abs(g - w) > 1e-6) { cat(sprintf("%s: self.time %s, pprof %.6f\n", ref$name[i], g, w)); ok <- FALSE }
    }
    if (length(got) != nrow(ref)) { cat(sprintf("%d functions, pprof %d\n", length(got), nrow(ref))); ok <- FALSE }
    quit(status = if (ok) 0 else 1)' "$tmp/r.out" "$tmp/ref_flat.tsv" "$total" "$period" >"$tmp/rlog" 2>&1; then
    echo "FAIL $b: summaryRprof disagrees with go tool pprof:"; head -10 "$tmp/rlog"; fail=1
  fi
  n=$((n + 1))
done
# F1: address-only locations (no lines) get the frame rule's name, 0x<address>
# (lib/core/frames.h), in Rprof as in collapsed: summaryRprof reads every
# line, its sampling.time is go tool pprof's total, and its by.self per
# name is the collapsed export's leaf sums (go tool pprof -top folds such
# frames per mapping, so it is not the per-name reference here)
for f in "$TD"/ext/pprof/go-cpu-stripped-unsymbolized.pb.gz "$TD"/ext/legacy-proto/*.pb.gz; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  total=$(go tool pprof -symbolize=none -top -nodecount=1 -sample_index=samples "$f" 2>/dev/null |
          sed -n 's/.* of \([0-9]*\) total.*/\1/p')
  period=$(go tool pprof -symbolize=none -raw "$f" 2>/dev/null | sed -n 's/^Period: \([0-9]*\)$/\1/p')
  "$PCOL" unpack "$f" --to rprof -o "$tmp/r.out" && "$PCOL" unpack "$f" --to collapsed --value samples -o "$tmp/c.txt" ||
    { echo "FAIL $b: export"; fail=1; continue; }
  if grep -qx '' "$tmp/r.out"; then echo "FAIL $b: an empty Rprof line"; fail=1; continue; fi
  if [ -z "$total" ] || [ -z "$period" ]; then # no samples/count: summaryRprof must still read it
    Rscript -e 'invisible(summaryRprof(commandArgs(TRUE)[1]))' "$tmp/r.out" >"$tmp/rlog" 2>&1 ||
      { echo "FAIL $b: summaryRprof: $(head -3 "$tmp/rlog")"; fail=1; }
    continue
  fi
  awk '{c=$NF; $NF=""; sub(/ $/, ""); k=split($0, fr, ";"); s[fr[k]]+=c} END{for (x in s) print x "\t" s[x]}' \
    "$tmp/c.txt" | sort >"$tmp/c_flat.tsv"
  if ! Rscript -e '
    a <- commandArgs(TRUE); s <- summaryRprof(a[1]); period <- as.numeric(a[4])
    ref <- read.delim(a[2], header = FALSE, col.names = c("name", "n"), quote = "", colClasses = c("character", "numeric"))
    iv <- s$sample.interval; ok <- abs(s$sampling.time - as.numeric(a[3]) * iv) < 1e-6
    if (!ok) cat(sprintf("sampling.time %.6f, pprof %s samples\n", s$sampling.time, a[3]))
    got <- setNames(s$by.self$self.time, gsub("^\"|\"$", "", rownames(s$by.self)))
    for (i in seq_len(nrow(ref))) if (is.na(got[ref$name[i]]) || abs(got[ref$name[i]] - ref$n[i] * iv) > 1e-6) {
      cat(ref$name[i], got[ref$name[i]], ref$n[i], "\n"); ok <- FALSE }
    quit(status = if (ok) 0 else 1)' "$tmp/r.out" "$tmp/c_flat.tsv" "$total" "$period" >"$tmp/rlog" 2>&1; then
    echo "FAIL $b: summaryRprof on the Rprof export of address-only frames:"; head -5 "$tmp/rlog"; fail=1
  fi
  n=$((n + 1))
done
echo "t_counts: $n pprof profiles counted alike by go tool pprof, summaryRprof and collapsed sums"
exit $fail
