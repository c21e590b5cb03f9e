#!/usr/bin/env bash
# Rprof against R itself (R >= 4): real profiles of R workloads
# (tests/r/workloads.R), the hand-made tests/fixtures/rprof/*.out and every
# file in ../shared/testdata/rprof/ (and ext/rprof/) must
#  1. pack and come back from `unpack --to rprof` byte for byte;
#  2. give `pcol top` the same self/total, percentages and sampling.time as
#     summaryRprof, by function and by line (tests/r/compare_top.R names the
#     known differences, doc/mappings.md §1.3 says why), and for
#     memory profiles the same mem.total (tests/r/compare_mem.R), by function
#     and, of line profiles, by source line (pcol list --by file);
#  3. and an Rprof file exported from a pprof profile must be read by
#     summaryRprof without error;
#  4. through speedscope and Firefox and back, summaryRprof of the copy is
#     the original's (bare srcrefs stay places, not functions);
#  5. several sources of different intervals (two generated pprof profiles of
#     10 and 20 ms, merged; an Rprof file among them) are exported under one
#     header whose summaryRprof times are go tool pprof's / pcol top's, and
#     what one header cannot hold is refused.
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
# the repository's hand-made files, hostile but valid, that summaryRprof
# reads in ways the R-written ones do not show: interleaved #File lines, a
# ref without a function, "<GC>" alone, two paths of one base name
# (interleaved); segments of 10 and 20 ms, a memory prefix after a header
# without it, #File numbers restarted (append); refs and #File lines under a
# header without the line flag, CR LF and LF (mixed_eol); quotes and blanks
# in names and paths (names); memory fields near 2^63 (hugemem).  (cut, CR LF
# alone and memory-only lines: ../shared/testdata/rprof has R's own.)
for f in interleaved append mixed_eol names hugemem; do inputs+=("tests/fixtures/rprof/$f.out"); done
# regular files only: a stray directory or note in the test data is not a profile
if [ -d "$TD/rprof" ]; then
  for f in "$TD"/rprof/* "$TD"/ext/rprof/*; do [ -f "$f" ] && [ "${f%.md}" = "$f" ] && inputs+=("$f"); done
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
          # (its note of the by-line rule aside: pcol_lines_rule_note says the flat's)
          "$PCOL" list "$W/$b.pcol" . --value samples 2>"$W/$b.list.err" | nocol >"$W/$b.list.pc"
          grep -v '^pcol list: note: .*by line, summaryRprof' "$W/$b.list.err" | nocol >>"$W/$b.list.pc"
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
      # and of a line profile, by.line's mem.total (lines = "show", memory =
      # "both") per source line: pcol list --by file's cum of rprof.alloc
      lst=()
      if head -1 "$f" | grep -q 'line profiling' &&
        "$PCOL" list "$W/$b.pcol" . --by file --value rprof.alloc --format csv >"$W/$b.alloc.list.csv" 2>/dev/null; then
        lst=("$W/$b.alloc.list.csv") # (none when no line has a file: R's by.line has none either)
      fi
      Rscript tests/r/compare_mem.R "$f" "$W/$b.alloc.csv" "${lst[@]}" || err "mem.total vs summaryRprof: $b"
    fi
  fi
  n=$((n + 1))
done
echo "rprof round trips: $n files"

# Rprof -> speedscope / Firefox -> Rprof: summaryRprof's by.total of the
# copy is the original's, no function more (review 12 F3: a bare srcref, a
# line without a function, came back as a function "FILE:LINE": profvis'
# "<expr>:1" 80%, proftree's ":7" 55.6%); the exports mark such a frame
# (pcolNameless) and the importers read it back as the place it was.
# Names R cuts or splits (a truncated file's last token, a name with a
# space: EXC r-cut, r-split of t_matrix.py) are not compared, nor files of
# appended segments (R reads a later header as a sample: compare_top.R's
# known difference "headers"; their copy has one header, §1.2).
nv=0
for f in "${inputs[@]}"; do
  b=$(basename "$f")
  [ "$(grep -c 'sample.interval=' "$f")" -gt 1 ] && continue
  outs=()
  for via in speedscope firefox; do
    "$PCOL" unpack "$f" --to $via -o "$W/$b.$via" 2>/dev/null && "$PCOL" unpack "$W/$b.$via" --to rprof -o "$W/$b.$via.out" ||
      { err "$b -> $via -> rprof"; continue; }
    outs+=("$W/$b.$via.out")
  done
  # and of a line-profiling file, summaryRprof(lines = "show")'s by.line
  # (self and total time per FILE#LINE): the lines inside named functions
  # (`1#7 "g"`) came back from speedscope without them, "profile does not
  # contain line information" (review h2; the export's frame per function
  # and line, pcolLine)
  Rscript -e 'a <- commandArgs(TRUE)
    bt <- function(f) { b <- suppressWarnings(summaryRprof(f))$by.total; x <- setNames(b$total.time, rownames(b))
      x[grepl("^\".*\"$", names(x)) & !grepl(" ", names(x))] }
    bl <- function(f) { b <- suppressWarnings(summaryRprof(f, lines = "show"))$by.line
      setNames(c(b$self.time, b$total.time), c(paste(rownames(b), "self"), paste(rownames(b), "total"))) }
    o <- tryCatch(bt(a[1]), error = function(e) NULL)
    if (is.null(o)) quit(status = 0) # (R cannot read it: t_matrix.py says which)
    ol <- tryCatch(bl(a[1]), error = function(e) NULL) # (NULL: no line profiling)
    # (nor a file without a srcref, whose copy states no line profiling, nor
    # a cut one, whose cut srcref "5#" and cut names R reads its own way:
    # pcol top --by line of the copy is the original'"'"'s there)
    if (!is.null(ol) && (all(grepl("^<no location> ", names(ol))) || any(grepl("#( self| total)$", names(ol))))) ol <- NULL
    bad <- 0
    for (f in a[-1]) {
      for (w in c("by.total", "by.line")) {
        if (w == "by.line" && is.null(ol)) next
        x <- tryCatch(if (w == "by.line") bl(f) else bt(f), error = function(e) c(error = NA))
        oo <- if (w == "by.line") ol else o
        new <- setdiff(names(x), names(oo)); gone <- setdiff(names(oo), names(x))
        k <- intersect(names(oo), names(x)); d <- k[abs(oo[k] - x[k]) > 1e-9]
        if (length(new) || length(gone) || length(d)) {
          bad <- 1; cat(basename(f), w, ": new", head(new, 4), "| gone", head(gone, 4), "| differ", head(d, 4), "\n") }
      }
    }
    quit(status = bad)' "$f" "${outs[@]}" || err "summaryRprof of $b through speedscope/firefox differs from the original's"
  nv=$((nv + 1))
done
echo "Rprof -> speedscope/firefox -> Rprof: summaryRprof's by.total (by.line of line profiling) of $nv files as the originals'"

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

# Every pprof profile of the test data whose default value is a time: a
# sample is its time in ticks (doc/mappings.md §1.2), so summaryRprof's
# sampling.time, by.self and by.total are what pcol top (go tool pprof -top)
# says of the profile itself, up to summaryRprof's rounding, or, when the
# export notes that it rounded, a tick a sample (tests/r/compare_export.R).
# (async-profiler, JFR, pprof-rs and Node write times that are not count x
# period: they read 0.52 s for 7.12 s, 359 s for 4.78 s, (idle) 3.70% for
# 39.27% when each sample was one line.)
if [ $have_top = 1 ]; then
  np=0
  for pb in "$TD"/pprof/* "$TD"/ext/pprof/*; do
    [ -f "$pb" ] && [ "${pb%.md}" = "$pb" ] || continue
    b=pp-$(basename "$pb")
    "$PCOL" top "$pb" --format tsv >"$W/$b.top" 2>/dev/null || continue # not a profile pcol reads
    awk -F'\t' 'NR == 2 { ok = $NF ~ /^(nanoseconds|microseconds|milliseconds|seconds)$/ } END { exit !ok }' \
      "$W/$b.top" || continue # its default value is no time (or it has no sample)
    "$PCOL" top "$pb" --value samples --format tsv >"$W/$b.cnt" || { err "pcol top --value samples $b"; continue; }
    "$PCOL" unpack "$pb" --to rprof -o "$W/$b.out" 2>"$W/$b.err" || { err "unpack $b --to rprof: $(cat "$W/$b.err")"; continue; }
    r=0; grep -q 'rounded to ticks' "$W/$b.err" && r=1
    Rscript tests/r/compare_export.R "$W/$b.out" "$W/$b.top" "$W/$b.cnt" $r >"$W/$b.cmp" 2>&1 ||
      { cat "$W/$b.cmp"; err "summaryRprof of the rprof export of $pb vs pcol top of it"; }
    np=$((np + 1))
  done
  [ $np -ge 7 ] || err "only $np pprof profiles of a time default judged (the test data has more)"
  echo "summaryRprof of the rprof export = pcol top on $np pprof profiles of a time default"
fi

# Several sources of different intervals: ONE header (summaryRprof reads the
# first line as the header and any later one as a sample), the greatest
# common divisor of the intervals, each sample written count x interval / GCD
# times (doc/mappings.md §1.2).  Two pprof profiles made here (protoc
# --encode), periods 10 and 20 ms, merged; judged by go tool pprof on each
# input (cpu = samples x period, added up) and by pcol top on the merge.
if command -v go >/dev/null 2>&1 && command -v protoc >/dev/null 2>&1; then
  G=$W/intervals && mkdir -p "$G"
  # gen PERIOD_NS OUT "COUNT LOC..." ...: locations 1-4 = main alpha beta gamma, leaf first
  gen() {
    local period=$1 out=$2 s c; shift 2
    {
      echo 'sample_type { type: 1 unit: 2 } sample_type { type: 3 unit: 4 }'
      for s in "$@"; do
        c=${s%% *}
        echo "sample { location_id: [$(echo "${s#* }" | tr ' ' ',')] value: [$c, $((c * period))] }"
      done
      for i in 1 2 3 4; do echo "location { id: $i line { function_id: $i } } function { id: $i name: $((i + 4)) }"; done
      echo 'string_table: ["", "samples", "count", "cpu", "nanoseconds", "main", "alpha", "beta", "gamma"]'
      echo "period_type { type: 3 unit: 4 } period: $period"
    } | protoc --proto_path=format --encode=perftools.profiles.Profile profile.proto >"$out"
  }
  gen 10000000 "$G/a.pb" "3 2 1" "5 3 2 1" "2 1"
  gen 20000000 "$G/b.pb" "4 2 1" "7 4 1" "1 3 2 1"
  "$PCOL" merge "$G/a.pb" "$G/b.pb" -o "$G/m.pcol" || err "merge of two pprof profiles"
  "$PCOL" unpack "$G/m.pcol" --to rprof -o "$G/m.out" || err "unpack --to rprof of 10 and 20 ms"
  [ "$(grep -c 'sample.interval' "$G/m.out")" = 1 ] && [ "$(head -1 "$G/m.out")" = "sample.interval=10000" ] ||
    err "10 and 20 ms: not one header of 10000: $(grep -n sample.interval "$G/m.out" | head -3)"
  # go tool pprof -top in ms on each input: NAME FLAT CUM, added up
  for x in a b; do
    HOME=$G go tool pprof -top -sample_index=cpu -unit=ms "$G/$x.pb" 2>/dev/null |
      awk '/^ *flat/ {on=1; next} on && NF >= 6 {sub(/ms$/, "", $1); sub(/ms$/, "", $4); print $6, $1, $4}'
  done | awk '{f[$1]+=$2; c[$1]+=$3} END {for (n in f) print n, f[n], c[n]}' | sort >"$G/go.txt"
  "$PCOL" top "$G/m.pcol" --value cpu --format csv |
    awk -F, 'NR > 1 {print $6, $1 / 1e6, $4 / 1e6}' | sort >"$G/top.txt"
  cmp -s "$G/go.txt" "$G/top.txt" || { err "pcol top of the merge vs go tool pprof on its inputs"; diff "$G/go.txt" "$G/top.txt"; }
  Rscript -e 'a <- commandArgs(TRUE); s <- summaryRprof(a[1]); r <- read.table(a[2], col.names = c("n", "flat", "cum"))
    got <- data.frame(n = gsub("\"", "", rownames(s$by.total)), cum = s$by.total$total.time * 1000,
                      flat = s$by.total$self.time * 1000)
    m <- merge(r, got, by = "n", all = TRUE)
    ok <- nrow(m) == nrow(r) && all(abs(m$flat.x - m$flat.y) < 1e-6) && all(abs(m$cum.x - m$cum.y) < 1e-6) &&
      abs(s$sampling.time * 1000 - sum(r$flat)) < 1e-6
    if (!ok) { print(m); cat("sampling.time", s$sampling.time, "\n"); quit(status = 1) }
    cat(sprintf("summaryRprof of 10 + 20 ms sources: %.2f s, as go tool pprof\n", s$sampling.time))' \
    "$G/m.out" "$G/go.txt" || err "summaryRprof of the export of 10 and 20 ms sources vs go tool pprof"
  # an Rprof source among them: rendered under the one header, its time kept
  "$PCOL" merge tests/fixtures/rprof/crlf.out "$G/b.pb" -o "$G/rb.pcol" &&
    "$PCOL" unpack "$G/rb.pcol" --to rprof -o "$G/rb.out" || err "unpack --to rprof of Rprof + pprof"
  [ "$(grep -c 'sample.interval' "$G/rb.out")" = 1 ] || err "Rprof + pprof: more than one header"
  "$PCOL" top "$G/rb.pcol" --value cpu --format csv | awk -F, 'NR > 1 {print $6, $1 / 1e6, $4 / 1e6}' | sort >"$G/rbtop.txt"
  Rscript -e 'a <- commandArgs(TRUE); s <- summaryRprof(a[1]); r <- read.table(a[2], col.names = c("n", "flat", "cum"))
    t1 <- summaryRprof(a[3])$sampling.time
    got <- data.frame(n = gsub("\"", "", rownames(s$by.self)), flat = s$by.self$self.time * 1000)
    m <- merge(r[r$flat > 0, c("n", "flat")], got, by = "n", all = TRUE)
    ok <- isTRUE(all.equal(s$sampling.time, t1 + 0.24)) && nrow(m) == sum(r$flat > 0) && all(abs(m$flat.x - m$flat.y) < 1e-6)
    if (!ok) { print(m); cat("sampling.time", s$sampling.time, t1, "\n"); quit(status = 1) }' \
    "$G/rb.out" "$G/rbtop.txt" tests/fixtures/rprof/crlf.out ||
    err "summaryRprof of Rprof (20 ms) + pprof (20 ms x 12) vs pcol top and summaryRprof of the Rprof file"
  # what one header cannot hold is refused, naming why, and writes nothing
  gen 1000 "$G/c.pb" "1 2 1"
  gen 10000000 "$G/d.pb" "30000 3 1"
  "$PCOL" merge "$G/c.pb" "$G/d.pb" -o "$G/cd.pcol" && rm -f "$G/cd.out"
  "$PCOL" unpack "$G/cd.pcol" --to rprof -o "$G/cd.out" 2>"$G/cd.err" && err "1 us + 10 ms x 30000: not refused"
  grep -q 'greatest common divisor' "$G/cd.err" && [ ! -e "$G/cd.out" ] ||
    err "1 us + 10 ms: $(cat "$G/cd.err"), $(ls "$G/cd.out" 2>&1)"
  for rf in append.out memonly.out; do # runs of 10 and 20 ms; memory fields
    "$PCOL" merge "tests/fixtures/rprof/$rf" "$G/a.pb" -o "$G/x.pcol" && rm -f "$G/x.out"
    "$PCOL" unpack "$G/x.pcol" --to rprof -o "$G/x.out" 2>"$G/x.err" && err "$rf + pprof: not refused"
    grep -q 'export it alone with --source 1' "$G/x.err" && [ ! -e "$G/x.out" ] || err "$rf + pprof: $(cat "$G/x.err")"
    "$PCOL" unpack "$G/x.pcol" --source 1 --to rprof -o "$G/x.out" && cmp -s "$G/x.out" "tests/fixtures/rprof/$rf" ||
      err "$rf --source 1 is not the file byte for byte"
  done
else
  echo "note: go or protoc absent: the several-interval checks are skipped"
fi
exit $fail
