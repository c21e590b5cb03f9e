#!/usr/bin/env bash
# bench/bindings.sh — the R and Python packages' benchmark rows (issue 18):
#  - Python: opening a 10M-sample file and getting the samples columns
#    (goal: <= 1 ms, zero-copy), broken down into what costs what;
#  - R: read_pcol of a 1M-sample file against summaryRprof on the same
#    profile's Rprof text (goal: >= 10x faster), and ALTREP against filling
#    ordinary vectors (altrep = FALSE), the choice the R README reports.
# Writes bench/results/bindings.md (BENCH_BIND_OUT).  Run by `make
# bench-bindings` on a plain -O2 build (the one `make` makes), installed
# with the packages into $BUILD/bindings as bindings/test.sh does.
#   BENCH_BIND_PY_SAMPLES (10000000), BENCH_BIND_R_SAMPLES (1000000)
set -u
BUILD=${BUILD:-build}
BENCH_BUILD=${BENCH_BUILD:-$BUILD/bench-build}
NPY=${BENCH_BIND_PY_SAMPLES:-10000000}
NR=${BENCH_BIND_R_SAMPLES:-1000000}
OUT=${BENCH_BIND_OUT:-bench/results/bindings.md}
PY=${PYTHON:-/usr/bin/python3}
T=$BENCH_BUILD/bench
DATA=$BUILD/bench-data/bindings
W=$PWD/$BUILD/bindings
mkdir -p "$DATA"
log() { echo "$*" >&2; }

BUILD=$BUILD bash bindings/test.sh install || { log "bench-bindings: could not build the packages"; exit 1; }
PCOL=$W/prefix/bin/pcol
have_py=0; "$PY" -c "import numpy" 2>/dev/null && [ -d "$W/py/pcol" ] && have_py=1
have_r=0; [ -d "$W/rlib/pcol" ] && have_r=1
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# ------------------------------------------------------------------ data
py_file=$DATA/py-$NPY.pcol
if [ $have_py = 1 ] && [ ! -s "$py_file" ]; then
  log "bench-bindings: generating $NPY samples (pcol, weights stored)"
  "$T/gen_profile" --samples "$NPY" --stacks many --weights --pcol "$py_file" >/dev/null || exit 1
fi
r_base=$DATA/r-$NR
if [ $have_r = 1 ] && [ ! -s "$r_base.pcol" ]; then
  log "bench-bindings: generating $NR samples (Rprof text, memory + line profiling), packed with pcol pack"
  "$T/gen_profile" --samples "$NR" --depth shallow --stacks many --memory --lines --rprof "$r_base.out" >/dev/null &&
    "$PCOL" pack "$r_base.out" -o "$r_base.pcol" || exit 1
fi

# ---------------------------------------------------------------- Python
py_rows=""
if [ $have_py = 1 ]; then
  log "bench-bindings: Python"
  py_rows=$(PYTHONPATH=$W/py "$PY" - "$py_file" <<'PYEOF'
import sys, time, statistics
import numpy as np
import pcol

path = sys.argv[1]
STORED_I64 = ("time_ns", "duration_ns", "weight", "cpu_delta_ns")
IDS = ("source_id", "stack_id", "labelset_id")


def timeit(fn, n=21):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), min(ts)


def cols(names, checked=False):
    def run():
        with pcol.open(path) as f:
            s = f.table("samples", checked=checked)
            for c in names:
                s[c]
    return run


with pcol.open(path) as f:
    s = f.table("samples")
    n = s.nrows
    zero_copy = all(not s[c].flags.owndata for c in STORED_I64 + IDS)
    w = s["weight"]
    t0 = time.perf_counter(); total = int(w.sum()); tsum = time.perf_counter() - t0
    copy = timeit(lambda: [np.array(s[c]) for c in STORED_I64 + IDS], 5)
    f.table("samples", checked=True)["stack_id"]
    again = timeit(lambda: [f.table("samples", checked=True)[c] for c in STORED_I64 + IDS])

rows = [
    ("open only", timeit(lambda: pcol.open(path).close())),
    ("open + table('samples') + the 4 i64 columns (time, duration, weight, cpu_delta)", timeit(cols(STORED_I64))),
    ("open + table('samples') + the 7 stored columns (+ source, stack, labelset ids, as stored)", timeit(cols(STORED_I64 + IDS))),
    ("... + sample_id (row numbers, not stored: computed)", timeit(cols(STORED_I64 + IDS + ("sample_id",)), 7)),
    ("open + table('samples', checked=True) + the 7 stored columns: libpcol checks every id, O(n)", timeit(cols(STORED_I64 + IDS, True), 7)),
    ("checked=True again, file already open (checked once per open file)", again),
    ("for comparison: copying the 7 stored columns (np.array), what a reader that copies pays at least", copy),
]
print("n\t%d" % n)
print("zero_copy\t%s" % zero_copy)
print("sum\t%.6f\t%d" % (tsum, total))
for label, (med, mn) in rows:
    print("row\t%s\t%.6f\t%.6f" % (label, med, mn))
PYEOF
) || { log "bench-bindings: Python measurements failed"; py_rows=""; }
fi

# --------------------------------------------------------------------- R
r_rows=""
if [ $have_r = 1 ]; then
  log "bench-bindings: R (summaryRprof of $NR samples takes about a minute)"
  r_rows=$(R_LIBS=$W/rlib Rscript - "$r_base.pcol" "$r_base.out" <<'REOF'
library(pcol)
a <- commandArgs(TRUE); f <- a[1]; txt <- a[2]
tm <- function(fn, n = 5) {
  t <- replicate(n, { gc(); t0 <- Sys.time(); fn(); as.double(Sys.time() - t0, units = "secs") })
  c(median(t), min(t))
}
num_cols <- function(p) { s <- p$samples; for (c in names(s)) if (is.numeric(s[[c]])) sum(s[[c]], na.rm = TRUE) }
mb <- function() { g <- gc(); sum(g[, 2]) }
out <- function(label, v) cat(sprintf("row\t%s\t%.6f\t%.6f\n", label, v[1], v[2]))
p <- read_pcol(f)
cat(sprintf("n\t%d\n", nrow(p$samples)))
cat(sprintf("rows\t%d\n", sum(vapply(p, nrow, 1L))))
heap <- function(...) { # R heap held by the result (after one warm-up read: R's string cache)
  x <- read_pcol(f, ...); rm(x); m0 <- mb(); x <- read_pcol(f, ...); m <- mb() - m0; rm(x); gc(); m
}
rm(p)
for (i in 1:2) invisible(c(heap(), heap(altrep = FALSE))) # warm-up: R's one-time allocations
cat(sprintf("mem\t%.1f\t%.1f\t%.1f\t%.1f\n", heap(), heap(altrep = FALSE),
            heap(tables = "samples"), heap(tables = "samples", altrep = FALSE)))
out("read_pcol (ALTREP, the default): every view", tm(function() read_pcol(f)))
out("read_pcol(altrep = FALSE): ordinary vectors filled in one pass", tm(function() read_pcol(f, altrep = FALSE)))
out("read_pcol(tables = \"samples\") (ALTREP)", tm(function() read_pcol(f, tables = "samples")))
out("read_pcol(tables = \"samples\", altrep = FALSE)", tm(function() read_pcol(f, tables = "samples", altrep = FALSE)))
out("read_pcol(tables = \"samples\") + sum() of each numeric column (ALTREP: converted on access)", tm(function() num_cols(read_pcol(f, tables = "samples"))))
out("read_pcol(tables = \"samples\", altrep = FALSE) + sum() of each numeric column", tm(function() num_cols(read_pcol(f, tables = "samples", altrep = FALSE))))
out("pcol_top (by function)", tm(function() pcol_top(f)))
out("read_pcol of the Rprof text (imported in memory, then read)", tm(function() read_pcol(txt), 3))
out("summaryRprof of the Rprof text", tm(function() utils::summaryRprof(txt), 1))
REOF
) || { log "bench-bindings: R measurements failed"; r_rows=""; }
fi

# --------------------------------------------------------------- report
ms() { awk -v s="$1" 'BEGIN { if (s < 0.001) printf "%.1f µs", s * 1e6; else if (s < 1) printf "%.2f ms", s * 1e3; else printf "%.2f s", s }'; }
field() { printf '%s\n' "$1" | awk -F'\t' -v k="$2" -v i="$3" '$1 == k { print $i; exit }'; }
rowval() { printf '%s\n' "$1" | awk -F'\t' -v l="$2" -v i="$3" '$1 == "row" && index($2, l) == 1 { print $i; exit }'; }
{
  echo "# Bindings benchmark (issue 18)"
  echo
  echo "Written by \`make bench-bindings\` (bench/bindings.sh) on $(date -u +%Y-%m-%d), $(nproc) CPUs"
  echo "(load average $load0 at the start: other jobs share this machine), $(uname -m),"
  echo "commit $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet -- bindings lib include 2>/dev/null || echo ' + uncommitted changes'),"
  echo "$("$PY" --version 2>&1) with numpy $("$PY" -c 'import numpy; print(numpy.__version__)' 2>/dev/null), $(R --version 2>/dev/null | head -1)."
  echo "libpcol is the plain \`make\` build (-O2), installed into a scratch prefix; times are medians"
  echo "(minimum in parentheses) of repeated runs inside one process, files in the page cache."
  echo
  if [ -n "$py_rows" ]; then
    n=$(field "$py_rows" n 2)
    echo "## Python: a ${n}-sample file (\`gen_profile --samples $NPY --stacks many --weights\`, $(( $(stat -c %s "$py_file") / 1000000 )) MB)"
    echo
    echo "| step | median | min |"
    echo "|---|---:|---:|"
    printf '%s\n' "$py_rows" | awk -F'\t' '$1 == "row"' | while IFS=$'\t' read -r _ label med mn; do
      echo "| $label | $(ms "$med") | $(ms "$mn") |"
    done
    echo
    zc=$(field "$py_rows" zero_copy 2)
    tsum=$(field "$py_rows" sum 2)
    echo "Stored columns are views of the mapping (no numpy array owns its data: $zc). Summing the"
    echo "mapped weight column once: $(ms "$tsum") ($(awk -v n="$n" -v t="$tsum" 'BEGIN { printf "%.1f", n * 8 / t / 1e9 }') GB/s)."
    echo
    g=$(rowval "$py_rows" "open + table('samples') + the 7" 3)
    chk=$(rowval "$py_rows" "open + table('samples', checked=True)" 3)
    echo "**Goal: open a 10M-sample file and get the samples columns in ≤ 1 ms (zero-copy).**"
    echo "$(ms "$g") for open + the seven stored columns: $(awk -v g="$g" 'BEGIN { print (g <= 0.001 ? "met" : "not met") }')."
    echo "\`table()\` hands a stored column out as stored (\`pcol_column_unchecked\`, O(1)); the ids in"
    echo "it are not compared with their tables (numpy's indexing refuses an id past the end; nothing"
    echo "reads out of bounds, doc/safety.md). With \`checked=True\` libpcol first checks every id of each"
    echo "column ($(( n * 4 / 1000000 )) MB each, once per open file): $(ms "$chk"), a pass over each column"
    echo "and the page faults of touching it; afterwards $(ms "$(rowval "$py_rows" "checked=True again" 3)"). Derived views, selections and \`top()\`"
    echo "always check. \`sample_id\` is not stored (row numbers) and is computed."
    echo
  else
    echo "## Python: not measured (/usr/bin/python3 with numpy or the package missing)"
    echo
  fi
  if [ -n "$r_rows" ]; then
    n=$(field "$r_rows" n 2)
    echo "## R: a ${n}-sample profile (\`gen_profile --samples $NR --depth shallow --stacks many --memory --lines\`)"
    echo
    echo "The Rprof text ($(( $(stat -c %s "$r_base.out") / 1000000 )) MB) packed with \`pcol pack\` ($(( $(stat -c %s "$r_base.pcol") / 1000000 )) MB); read_pcol returns all 17 views,"
    echo "$(field "$r_rows" rows 2) rows in all. R heap held by the result: every view $(field "$r_rows" mem 2) MB with ALTREP,"
    echo "$(field "$r_rows" mem 3) MB with ordinary vectors; the samples view $(field "$r_rows" mem 4) MB with ALTREP, $(field "$r_rows" mem 5) MB without."
    echo
    echo "| step | median | min |"
    echo "|---|---:|---:|"
    printf '%s\n' "$r_rows" | awk -F'\t' '$1 == "row"' | while IFS=$'\t' read -r _ label med mn; do
      echo "| $label | $(ms "$med") | $(ms "$mn") |"
    done
    echo
    rd=$(rowval "$r_rows" "read_pcol (ALTREP" 3)
    sr=$(rowval "$r_rows" "summaryRprof" 3)
    ratio=$(awk -v a="$rd" -v b="$sr" 'BEGIN { printf "%.0f", b / a }')
    echo "**Goal: read_pcol of a 1M-sample file ≥ 10× faster than summaryRprof on the same profile's"
    echo "Rprof text.** $(ms "$rd") against $(ms "$sr"): ${ratio}× — $(awk -v r="$ratio" 'BEGIN { print (r >= 10 ? "met" : "not met") }')."
    echo
  else
    echo "## R: not measured (R or the package missing)"
    echo
  fi
} >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
log "bench-bindings: wrote $OUT"
cat "$OUT"
